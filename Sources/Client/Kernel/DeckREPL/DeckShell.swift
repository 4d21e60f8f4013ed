import ArgumentParser
import DeckCore
import Synchronization

/// The root command the REPL, script mode and the shell commands parse lines with. The
/// executable registers it once at start-up (the core cannot name the executable's root).
public enum DeckShell {
  private static let registered = Mutex<(any ParsableCommand.Type)?>(nil)

  public static func register(root: any ParsableCommand.Type) {
    registered.withLock { $0 = root }
  }

  static var root: any ParsableCommand.Type {
    guard let root = registeredRoot else { fatalError("DeckShell.register(root:) was not called") }
    return root
  }

  /// The root command, once registered (nil in a process that registered none).
  public static var registeredRoot: (any ParsableCommand.Type)? { registered.withLock { $0 } }

  /// The completion script for a shell, exactly as `deck completion SHELL` prints it (nil
  /// when no root is registered).
  public static func completionScript(for shell: CompletionShell) -> String? {
    registeredRoot.map { CompletionScripts.adjusted($0.completionScript(for: shell), for: shell) }
  }

  /// The names of deck's commands, which win over plugins (nil when no root is registered).
  public static var commandNames: Set<String>? {
    registeredRoot.map { names($0) }
  }

  /// Runs one command line through the same runner as one-shot mode.
  static func run(_ arguments: [String], session: DeckSession) async -> Int32 {
    await DeckRunner.run(root, arguments: arguments, session: session)
  }

  /// Parses a command line and prints nothing (``DeckRunner/prepareLine(_:arguments:session:)``).
  static func prepare(_ arguments: [String], session: DeckSession) -> DeckRunner.ParsedLine {
    DeckRunner.prepareLine(root, arguments: arguments, session: session)
  }

  /// Runs a command line parsed by `prepare`, as `run(_:session:)` runs its words.
  static func run(_ parsed: DeckRunner.ParsedLine, session: DeckSession) async -> Int32 {
    await DeckRunner.run(root, parsed: parsed, session: session)
  }

  static var builtinNames: Set<String> { names(root) }

  private static func names<Root: ParsableCommand>(_ root: Root.Type) -> Set<String> {
    DeckRunner.builtinNames(root)
  }

  /// Asks the argument parser for a custom completion, exactly as a shell script does
  /// (`deck ---completion <path> -- <argument> <index> <cursor> <words…>`), in-process.
  static func customCompletion(path: [String], argument: String, words: [String], index: Int, prefix: String)
    -> [String]
  {
    let request = ["---completion"] + path + ["--", argument, "\(index)", "\(prefix.count)"] + words
    do {
      _ = try root.parseAsRoot(request)
      return []
    } catch {
      guard root.exitCode(for: error) == .success else { return [] }
      return root.fullMessage(for: error).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }
  }
}
