import ArgumentParser
import FoundationEssentials

/// deck's command tree as swift-argument-parser describes it (`_dumpHelp()`, ToolInfo v0):
/// the one source of truth for the REPL's completion and for "did you mean" on a mistyped
/// command, as it is for help and the shell scripts.
public struct CommandTree: Sendable, Decodable {
  public var commandName: String
  public var aliases: [String]?
  public var abstract: String?
  public var shouldDisplay: Bool?
  public var subcommands: [CommandTree]?
  public var arguments: [Argument]?

  public struct Argument: Sendable, Decodable {
    public enum Kind: String, Sendable, Decodable {
      case positional, option, flag
    }
    public struct Name: Sendable, Decodable {
      public var kind: String
      public var name: String
      public var spelled: String { kind == "long" ? "--\(name)" : kind == "short" ? "-\(name)" : "-\(name)" }
    }
    public var kind: Kind
    public var shouldDisplay: Bool
    public var isRepeating: Bool
    public var names: [Name]?
    public var preferredName: Name?
    public var allValues: [String]?
    public var completionKind: CompletionKind?

    public enum CompletionKind: Sendable, Decodable, Equatable {
      case list([String])
      case custom
      /// A file name, of one of `extensions` when there are any (without the dot).
      case file(extensions: [String])
      /// A directory name.
      case directory
      case other

      /// A file or a directory (what ``FileArguments`` declares).
      public var namesFiles: Bool {
        switch self {
        case .file, .directory: true
        default: false
        }
      }

      enum Keys: String, CodingKey { case list, custom, customAsync, customDeprecated, file, directory }
      struct ListValues: Decodable { var values: [String] }
      struct FileValues: Decodable { var extensions: [String]? }

      public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        if let list = try? container.decode(ListValues.self, forKey: .list) {
          self = .list(list.values)
        } else if container.contains(.custom) || container.contains(.customAsync)
          || container.contains(.customDeprecated)
        {
          self = .custom
        } else if container.contains(.file) {
          self = .file(extensions: (try? container.decode(FileValues.self, forKey: .file))?.extensions ?? [])
        } else if container.contains(.directory) {
          self = .directory
        } else {
          self = .other
        }
      }
    }

    /// How the argument parser names it in a `---completion` request.
    public func completionIdentifier(positionalIndex: Int) -> String {
      kind == .positional ? "positional@\(positionalIndex)" : (preferredName?.spelled ?? "---")
    }
  }

  struct Envelope: Decodable { var command: CommandTree }

  /// The tree of a root command.
  public static func of(_ root: any ParsableCommand.Type) -> CommandTree {
    let json = root._dumpHelp()
    do {
      return try JSONDecoder().decode(Envelope.self, from: Data(json.utf8)).command
    } catch {
      return CommandTree(commandName: root._commandName)
    }
  }

  init(commandName: String) { self.commandName = commandName }

  public var visibleSubcommands: [CommandTree] {
    (subcommands ?? []).filter { $0.shouldDisplay ?? true }
  }

  public func subcommand(named name: String) -> CommandTree? {
    subcommands?.first { $0.commandName == name || ($0.aliases ?? []).contains(name) }
  }

  public var positionals: [Argument] { (arguments ?? []).filter { $0.kind == .positional } }

  /// The option or flag spelled `word` (`--limit`, `-h`).
  public func namedArgument(_ word: String) -> Argument? {
    (arguments ?? []).first { argument in (argument.names ?? []).contains { $0.spelled == word } }
  }
}
