import ArgumentParser
import DeckSupport
import Synchronization

/// Parses and runs one command line. One-shot mode, the REPL and script mode all come through
/// here, so a line behaves the same everywhere: same parser, output, errors and exit codes.
public enum DeckRunner {
  /// Runs `arguments` (without the program name) and returns the exit code. Never exits the process.
  public static func run<Root: ParsableCommand>(
    _ root: Root.Type, arguments: [String], session: DeckSession
  ) async -> Int32 {
    await run(root, parsed: parseLine(root, arguments: arguments, session: session), session: session)
  }

  /// A command line, parsed: answered already, to be answered, a plugin to run, or a command
  /// to run.
  public enum ParsedLine {
    /// Help, the version, a shell's completion request or a usage error, printed; the exit code.
    case answered(Int32)
    /// Help, the version, a shell's completion request or a usage error, as the parser threw
    /// it, not printed yet: `run(_:parsed:session:)` prints it.
    case unanswered(any Error, arguments: [String])
    case plugin(Plugins.Plugin, arguments: [String])
    case command(any ParsableCommand, arguments: [String])
  }

  /// Parses a line, and prints the answer to one that runs nothing (help, the version, a
  /// completion request, a usage error). Synchronous: a one-shot that asks for help is answered
  /// before any task starts.
  public static func parseLine<Root: ParsableCommand>(
    _ root: Root.Type, arguments: [String], session: DeckSession
  ) -> ParsedLine {
    let parsed = prepareLine(root, arguments: arguments, session: session)
    guard case .unanswered(let error, let arguments) = parsed else { return parsed }
    return .answered(report(error, root: root, arguments: arguments, session: session))
  }

  /// Parses a line and prints nothing: the answer to a line that runs nothing is left for
  /// `run(_:parsed:session:)`. Script mode parses a line ahead of time, while the one before
  /// it runs. Parsing reads nothing an earlier line can change: the words, argument-parser's
  /// parse and validation (pure checks of the words), and the plugins on PATH. A shell's
  /// completion request is the exception (its answer may ask the backend): script mode parses
  /// it in its turn.
  public static func prepareLine<Root: ParsableCommand>(
    _ root: Root.Type, arguments: [String], session: DeckSession
  ) -> ParsedLine {
    if let name = arguments.first, !name.hasPrefix("-"), !builtinNames(root).contains(name),
      let plugin = Plugins.discover(path: session.processEnvironment["PATH"], builtins: []).first(where: {
        $0.name == name
      })
    {
      return .plugin(plugin, arguments: Array(arguments.dropFirst()))
    }
    do {
      return .command(try parse(root, normalize(arguments)), arguments: arguments)
    } catch {
      return .unanswered(error, arguments: arguments)
    }
  }

  /// Runs a parsed line and returns the exit code.
  public static func run<Root: ParsableCommand>(
    _ root: Root.Type, parsed: ParsedLine, session: DeckSession
  ) async -> Int32 {
    switch parsed {
    case .answered(let code):
      return code
    case .unanswered(let error, let arguments):
      return report(error, root: root, arguments: arguments, session: session)
    case .plugin(let plugin, let arguments):
      do {
        let context = DeckContext(session: session, options: .defaults)
        return try await Plugins.run(plugin, arguments: arguments, context: context)
      } catch {
        return report(error, root: root, arguments: arguments, session: session)
      }
    case .command(var command, let arguments):
      do {
        try await DeckSession.$current.withValue(session) {
          if var asyncCommand = command as? any AsyncParsableCommand {
            try await asyncCommand.run()
          } else {
            try command.run()
          }
        }
        return ExitCode.success
      } catch {
        return report(error, root: root, arguments: arguments, session: session)
      }
    }
  }

  /// Prints what an error from parsing or running a line says, and returns its exit code: the
  /// one place a line's errors become exit codes.
  static func report<Root: ParsableCommand>(
    _ error: any Error, root: Root.Type, arguments: [String], session: DeckSession
  ) -> Int32 {
    if ErrorPresenter.owns(error) { return ErrorPresenter.present(error, output: session.output) }
    let code = root.exitCode(for: error).rawValue
    // A usage error, or help asked for a path that names no command: say which word is not a
    // command and what it may have meant. The whole tree (`_dumpHelp()`, every command
    // reflected) is built only when a word may be a mistyped command: not for plain `--help`,
    // a path of real commands, or a shell's completion request.
    if code == ExitCode.validationFailure.rawValue
      || (code == 0 && !isCompletionRequest(arguments) && !isCompletionScriptRequest(arguments)
        && !namesOnlyCommands(root, arguments)),
      let unknown = UsageHelp.unknownCommand(in: CommandTree.of(root), arguments: arguments)
    {
      return ErrorPresenter.present(unknown.error, output: session.output)
    }
    // Usage errors quote the words of the line, which may come from a script or a pipe:
    // Output strips their control characters.
    var message = root.fullMessage(for: error)
    if code == 0, isCompletionScriptRequest(arguments) {
      // The same script as `deck completion SHELL`.
      if let shell = completionScriptShell(arguments) { message = CompletionScripts.adjusted(message, for: shell) }
    } else if code == 0 {
      message = HelpText.fitting(HelpText.condensingGlobalOptions(message), columns: session.output.columns)
    }
    if !message.isEmpty {
      if code == 0 { session.output.line(message) } else { session.output.info(message) }
    }
    return code
  }

  /// Parses a line. The common case, a line naming a top-level command, is parsed against that
  /// command's subtree only: swift-argument-parser reflects over every type of the tree it is
  /// given, and in a binary this size each first reflection of a type costs a scan of all
  /// protocol conformances. Anything the subtree cannot parse (a typo, `--help`, options placed
  /// before the command name, `--version`) is parsed again from the root, so errors and help
  /// are exactly the root's.
  ///
  /// The subtree is the deepest command the leading words name (`brokerage search keller` is
  /// parsed by `search` alone), found through the commands' static configurations, which
  /// reflect nothing: each command level parsed costs a reflection of its arguments (and of
  /// argument-parser's own completion-script pseudo-commands), on every line of a script.
  static func parse<Root: ParsableCommand>(_ root: Root.Type, _ arguments: [String]) throws -> any ParsableCommand {
    try answerCompletionInSubtree(root, arguments)
    if !needsTheRoot(arguments), let (subtree, rest) = deepestCommand(root, arguments),
      let command = try? subtree.parseAsRoot(rest), command is any DeckCommand
    {
      return command
    }
    return try root.parseAsRoot(arguments)
  }

  /// A shell's completion request for an argument of a command it names
  /// (`---completion brokerage search -- positional@0 …`), answered by that command alone, as
  /// a one-shot line is: from the root, argument-parser would build the whole tree first, and
  /// with it every command's configuration and help text (bench/README.md has the cost). The
  /// answer is thrown, as argument-parser throws it, an empty one too (a lookup past its
  /// budget: asking the root again would ask the backend twice); a request the command cannot
  /// parse returns, and the root answers it.
  static func answerCompletionInSubtree<Root: ParsableCommand>(_ root: Root.Type, _ arguments: [String]) throws {
    guard isCompletionRequest(arguments), let dashes = arguments.firstIndex(of: "--"), dashes > 1,
      let (command, rest) = deepestCommand(root, Array(arguments[1..<dashes])), rest.isEmpty
    else { return }
    do {
      _ = try command.parseAsRoot(["---completion"] + arguments[dashes...])
    } catch  where command.exitCode(for: error) == .success {
      throw error
    } catch {
      return
    }
  }

  /// Whether only the root parses `arguments` right: help (its text and errors are the
  /// root's), or `--` (after which no word is a command name).
  static func needsTheRoot(_ arguments: [String]) -> Bool {
    arguments.contains { $0 == "-h" || $0 == "--help" || $0 == "help" || $0 == "--" }
  }

  /// The deepest command named by the leading words of `arguments`, and the words after them
  /// (nil when the first word names no subcommand).
  static func deepestCommand(_ root: any ParsableCommand.Type, _ arguments: [String]) -> (
    any ParsableCommand.Type, [String]
  )? {
    var node = root
    var index = 0
    while index < arguments.count, let next = subcommand(of: node, named: arguments[index]) {
      node = next
      index += 1
    }
    return index == 0 ? nil : (node, Array(arguments[index...]))
  }

  /// The subcommand of `command` called `name` (or with that alias), from its configuration.
  static func subcommand(of command: any ParsableCommand.Type, named name: String) -> (any ParsableCommand.Type)? {
    guard !name.hasPrefix("-") else { return nil }
    return command.configuration.subcommands.first {
      $0._commandName == name || $0.configuration.aliases.contains(name)
    }
  }

  /// A shell's (or the REPL's) completion request: its answer is the output, not help.
  static func isCompletionRequest(_ arguments: [String]) -> Bool {
    arguments.first == "---completion"
  }

  /// argument-parser's `--generate-completion-script [SHELL]`: its answer is the script, and
  /// its value is no command name.
  static func isCompletionScriptRequest(_ arguments: [String]) -> Bool {
    arguments.contains { $0 == "--generate-completion-script" || $0.hasPrefix("--generate-completion-script=") }
  }

  /// The shell a completion-script request names (`--generate-completion-script bash` or
  /// `=bash`), or the one argument-parser detects when it names none.
  static func completionScriptShell(_ arguments: [String]) -> CompletionShell? {
    guard let at = arguments.firstIndex(where: { $0.hasPrefix("--generate-completion-script") }) else { return nil }
    let flag = arguments[at]
    if let equals = flag.firstIndex(of: "=") {
      return CompletionShell(rawValue: String(flag[flag.index(after: equals)...]))
    }
    if at + 1 < arguments.count, let named = CompletionShell(rawValue: arguments[at + 1]) { return named }
    return .autodetected()
  }

  /// Whether every word that stands where a subcommand belongs names one (a help request for
  /// a real path such as `brokerage search --help`), judged from the static configurations.
  /// False when unsure (a word that may be an option's value), and the caller asks the tree.
  static func namesOnlyCommands(_ root: any ParsableCommand.Type, _ arguments: [String]) -> Bool {
    var node = root
    var words = arguments[...]
    if words.first == "help" { words = words.dropFirst() }
    for word in words {
      if word == "--" { return true }
      if word.hasPrefix("-") { continue }
      if let next = subcommand(of: node, named: word) {
        node = next
      } else {
        // A word after a command without subcommands is its argument; anything else may be a typo.
        return node.configuration.subcommands.isEmpty || word == "help"
      }
    }
    return true
  }

  /// The names (and aliases) of the root's subcommands: they win over plugins.
  public static func builtinNames<Root: ParsableCommand>(_ root: Root.Type) -> Set<String> {
    let key = ObjectIdentifier(root)
    if let names = builtinNameCache.withLock({ $0[key] }) { return names }
    var names: Set<String> = ["help"]
    for command in root.configuration.subcommands {
      names.insert(command._commandName)
      names.formUnion(command.configuration.aliases)
    }
    builtinNameCache.withLock { $0[key] = names }
    return names
  }

  /// The names under each root, built once: a command's configuration may be computed (the
  /// sandbox's lists the registry's commands), and script mode asks for every line.
  private static let builtinNameCache = Mutex<[ObjectIdentifier: Set<String>]>([:])

  /// `--trace=body` is spelled as a hidden flag for the parser; everything else is untouched.
  public static func normalize(_ arguments: [String]) -> [String] {
    var result: [String] = []
    result.reserveCapacity(arguments.count)
    for (index, argument) in arguments.enumerated() {
      if argument == "--" {
        result += arguments[index...]
        break
      }
      result.append(argument == "--trace=body" ? "--trace-body" : argument)
    }
    return result
  }
}
