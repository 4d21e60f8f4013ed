import ArgumentParser

/// The files a command's words name, declared beside its options: which options (every
/// spelling) and whether its first argument name a file deck writes or reads. `deck qa` keeps
/// a scenario's writes inside its run and withholds the output of a step that read a file from
/// outside it; it learns both from these declarations, so a new command that names a file
/// declares it where its options are, and `FileArgumentsTests` fails for one that does not.
public struct FileArguments: Sendable, Equatable {
  /// Options whose value is a file or directory deck writes.
  public var writes: [String]
  /// Options whose value is a file deck reads.
  public var reads: [String]
  /// Options whose value is `key=@FILE` for a file deck reads (other values are not files).
  public var readsFields: [String]
  /// The first argument is a file deck reads (`-`: standard input).
  public var readsArgument: Bool
  /// The first argument is a file or directory deck writes.
  public var writesArgument: Bool

  public init(
    writes: [String] = [], reads: [String] = [], readsFields: [String] = [], readsArgument: Bool = false,
    writesArgument: Bool = false
  ) {
    self.writes = writes
    self.reads = reads
    self.readsFields = readsFields
    self.readsArgument = readsArgument
    self.writesArgument = writesArgument
  }

  /// Every option spelling that takes a file.
  public var optionNames: [String] { writes + reads + readsFields }
}

/// A command whose options or arguments name files (see ``FileArguments``).
public protocol NamingFiles {
  static var files: FileArguments { get }
}

extension DeckRegistry {
  /// The commands that name files, each by its words under deck (`["prefs", "photo", "get"]`).
  public var fileArguments: [(command: [String], files: FileArguments)] {
    var found: [(command: [String], files: FileArguments)] = []
    func walk(_ command: any ParsableCommand.Type, path: [String]) {
      let configuration = command.configuration
      guard let name = configuration.commandName else { return }
      let words = path + [name]
      if let naming = command as? any NamingFiles.Type { found.append((words, naming.files)) }
      for subcommand in configuration.subcommands { walk(subcommand, path: words) }
    }
    for command in commands { walk(command, path: []) }
    return found
  }
}
