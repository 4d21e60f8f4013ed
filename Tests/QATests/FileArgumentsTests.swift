import DeckApp
import DeckCore
import Testing

/// `deck qa` keeps a step's writes inside its run and withholds the output of one that read a
/// file from outside it, by what each command declares (`FileArguments`). These keep the
/// declarations true: an option or argument that completes file names is declared by its
/// command, and every declared option exists.
@Suite struct FileArgumentsTests {
  /// Names a directory steps may write under; deck writes nothing there itself.
  static let notFiles: Set<String> = ["qa run --allow-writes-outside"]

  static let tree = CommandTree.of(Deck.self)
  static let declared = Dictionary(
    Registry.modules.fileArguments.map { ($0.command.joined(separator: " "), $0.files) },
    uniquingKeysWith: { a, _ in a })

  /// Every command under deck, by its words, with its arguments.
  static func commands() -> [(words: String, arguments: [CommandTree.Argument])] {
    var found: [(String, [CommandTree.Argument])] = []
    func walk(_ node: CommandTree, path: [String]) {
      found.append((path.joined(separator: " "), node.arguments ?? []))
      for child in node.subcommands ?? [] { walk(child, path: path + [child.commandName]) }
    }
    for child in tree.subcommands ?? [] { walk(child, path: [child.commandName]) }
    return found
  }

  @Test func everyFileArgumentIsDeclaredByItsCommand() {
    var undeclared: [String] = []
    for (words, arguments) in Self.commands() {
      let files = Self.declared[words]
      for argument in arguments where argument.completionKind?.namesFiles == true {
        let spellings = (argument.names ?? []).map(\.spelled)
        let name =
          argument.kind == .positional ? "<\(argument.preferredName?.name ?? "argument")>" : spellings.first ?? ""
        if Self.notFiles.contains("\(words) \(name)") { continue }
        let isDeclared =
          argument.kind == .positional
          ? (files?.readsArgument ?? false) || (files?.writesArgument ?? false)
          : spellings.allSatisfy { (files?.optionNames ?? []).contains($0) }
        if !isDeclared { undeclared.append("\(words) \(name)") }
      }
    }
    #expect(
      undeclared.isEmpty,
      "declare these in the command's FileArguments (or, if deck opens no file, in notFiles): \(undeclared)")
  }

  @Test func everyDeclaredOptionExists() throws {
    let commands = Dictionary(Self.commands().map { ($0.words, $0.arguments) }, uniquingKeysWith: { a, _ in a })
    #expect(!Self.declared.isEmpty)
    for (words, files) in Self.declared {
      let arguments = try #require(commands[words], "\(words) is not a command")
      let spellings = Set(arguments.flatMap { ($0.names ?? []).map(\.spelled) })
      for name in files.optionNames { #expect(spellings.contains(name), "\(words) has no option \(name)") }
      if files.readsArgument || files.writesArgument {
        #expect(arguments.contains { $0.kind == .positional }, "\(words) takes no argument")
      }
    }
  }
}
