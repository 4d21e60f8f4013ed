import DeckApp
import DeckCore
import DeckLive
import DeckREPL
import DeckSupport
import Dispatch
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// deck's program: a command line, the REPL or script mode.
enum DeckProgram {
  /// Runs `arguments` (without the program name) as deck does, and exits with its code. A line
  /// that runs nothing (help, the version, a shell's completion request, a usage error) is
  /// answered before any task starts: the concurrency runtime's first task starts three threads.
  static func start(arguments: [String], environment: [String: String]) -> Never {
    let session = makeSession(arguments: arguments, environment: environment)
    if !arguments.isEmpty, !isScriptMode(arguments) {
      nonisolated(unsafe) let parsed = DeckRunner.parseLine(Deck.self, arguments: arguments, session: session)
      if case .answered(let code) = parsed { exit(code) }
      Task { @MainActor in exit(await DeckRunner.run(Deck.self, parsed: parsed, session: session)) }
    } else {
      Task { @MainActor in exit(await run(arguments: arguments, session: session)) }
    }
    dispatchMain()
  }

  static func isScriptMode(_ arguments: [String]) -> Bool {
    (arguments.isEmpty && isatty(0) == 0) || arguments.first == "run"
  }

  /// The session a line runs in, with the registry and the completion providers installed.
  static func makeSession(arguments: [String], environment: [String: String]) -> DeckSession {
    // Tokens given through the environment are read from `environment` (the session's copy);
    // the process's own environment drops them before any thread starts, so nothing deck
    // starts or evaluates (a plugin, an editor, jq's `$ENV` and `env` in --jq) can print them.
    for secret in SecretVariables.names { unsetenv(secret) }
    var output = Output.standard(environment: environment)
    if isScriptMode(arguments) { output = output.withoutColor() }
    if arguments.first == "---completion" { output = output.withoutStderr() }
    DeckRegistry.install(Registry.modules)
    let session = DeckSession(
      processEnvironment: environment,
      providers: LiveProviders(),
      output: output, lineReader: ReadlineLineReader(), registry: Registry.modules)
    CompletionSession.register { session }
    DynamicCompletion.register(Registry.modules.completionProviders)
    DeckShell.register(root: Deck.self)
    return session
  }

  /// One command line, the REPL (no arguments, a terminal) or script mode (no arguments, a pipe
  /// or a file; or `run`).
  static func run(arguments: [String], session: DeckSession) async -> Int32 {
    if arguments.isEmpty {
      return isatty(0) == 1
        ? await REPL(session: session).run()
        : await ScriptRunner(session: session, keepGoing: false).run(lines: ScriptInput.stdinLines(), source: "stdin")
    }
    return await DeckRunner.run(Deck.self, arguments: arguments, session: session)
  }
}
