import DeckApp
import DeckCore
import DeckHTTPTransport
import DeckHelper
import DeckLive
import DeckREPL
import DeckSupport
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// deck-core's program: a command line, the REPL or script mode, in this process or in a child
/// of the start-up helper (docs/HELPER.md), which it also is when started as one.
enum DeckProgram {
  /// Runs `arguments` (without the program name) as deck does, and exits with its code. A line
  /// that runs nothing (help, the version, a shell's completion request, a usage error) is
  /// answered before any task starts: the concurrency runtime's first task starts three threads.
  static func start(arguments: [String], environment: [String: String]) -> Never {
    let session = makeSession(arguments: arguments, environment: environment, providers: nil)
    if !arguments.isEmpty, !isScriptMode(arguments) {
      nonisolated(unsafe) let parsed = DeckRunner.parseLine(Deck.self, arguments: arguments, session: session)
      if case .answered(let code) = parsed { exit(code) }
      Task { @MainActor in exit(await DeckRunner.run(Deck.self, parsed: parsed, session: session)) }
    } else {
      Task { @MainActor in exit(await run(arguments: arguments, session: session)) }
    }
    dispatchMain()
  }

  /// One command line, the REPL (no arguments, a terminal) or script mode (no arguments, a pipe
  /// or a file; or `run`).
  static func run(
    arguments: [String], environment: [String: String], providers: LiveProviders? = nil
  ) async -> Int32 {
    await run(
      arguments: arguments, session: makeSession(arguments: arguments, environment: environment, providers: providers))
  }

  static func isScriptMode(_ arguments: [String]) -> Bool {
    (arguments.isEmpty && isatty(0) == 0) || arguments.first == "run"
  }

  /// The session a line runs in, with the registry and the completion providers installed.
  static func makeSession(arguments: [String], environment: [String: String], providers: LiveProviders?) -> DeckSession
  {
    // Tokens given through the environment are read from `environment` (the session's copy);
    // the process's own environment drops them before any thread starts, so nothing deck
    // starts or evaluates (a plugin, an editor, jq's `$ENV` and `env` in --jq) can print them.
    for secret in SecretVariables.names { unsetenv(secret) }
    var output = Output.standard(environment: environment)
    if isScriptMode(arguments) { output = output.withoutColor() }
    DeckRegistry.install(Registry.modules)
    let session = DeckSession(
      processEnvironment: environment,
      providers: providers ?? LiveProviders(sandboxFeatures: Registry.sandboxFeatures),
      output: output, lineReader: ReadlineLineReader(), registry: Registry.modules)
    CompletionSession.register { session }
    DynamicCompletion.register(Registry.modules.completionProviders)
    DeckShell.register(root: Deck.self)
    return session
  }

  static func run(arguments: [String], session: DeckSession) async -> Int32 {
    // Script mode's lines run on the HTTP client's event loop thread (ClientLoopExecutor).
    if isScriptMode(arguments) { ClientLoopExecutor.takeOver() }
    if arguments.isEmpty {
      return isatty(0) == 1
        ? await REPL(session: session).run()
        : await ScriptRunner(session: session, keepGoing: false).run(lines: ScriptInput.stdinLines(), source: "stdin")
    }
    return await DeckRunner.run(Deck.self, arguments: arguments, session: session)
  }

  /// The helper: warms up, then forks a child per command line. Its own environment (the first
  /// launcher's, which may hold a token) is dropped first.
  static func serveAsHelper(socketPath: String) -> Never {
    let idle = getenv("DECK_HELPER_IDLE").flatMap { Int(String(cString: $0)) }.map { max(1, $0) } ?? 300
    HelperServer.resetEnvironment()
    HelperServer(socketPath: socketPath, idleSeconds: idle).serve(warmUp: warmUp) { connection, inherited in
      let request = HelperChild.adopt(connection, closing: inherited)
      let arguments = Array(request.arguments.dropFirst())
      let environment = ProcessEnvironment.current()
      if DeckRunner.runsInForeground(Deck.self, arguments: arguments, path: environment["PATH"]) {
        HelperChild.handBack(connection)
      }
      close(connection)
      start(arguments: arguments, environment: environment)
    }
  }

  /// What a child's command finds warm: the parser and help of the root and a subtree, the
  /// shell completion path, and a search's whole round trip (client, generated code, JSON)
  /// against a private sandbox (`WarmSandbox`, another process) in a temporary HOME. Output
  /// goes to /dev/null (the helper's stdio). Then the HTTP client and its event loop are shut
  /// down, so the helper can become single-threaded. False when any of it failed: the helper
  /// then hands every command back.
  static func warmUp() -> Bool {
    var template = Array("/tmp/deck-helper-XXXXXX".utf8CString)
    guard
      let home = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap(mkdtemp) }).map({
        String(cString: $0)
      })
    else { return false }
    defer { try? FileManager.default.removeItem(atPath: home) }
    var executable = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard realpath("/proc/self/exe", &executable) != nil,
      let sandbox = WarmSandbox.start(
        executable: String(decoding: executable.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
        home: home)
    else { return false }
    defer { sandbox.stop() }
    let environment = [
      "HOME": home, "PATH": HelperServer.minimalPath, "NO_COLOR": "1", "DECK_ENV": "local",
      "DECK_FLYR_URL": sandbox.url,
    ]
    let lines: [[String]] = [
      ["brokerage", "search", "keller", "--json"],
      ["brokerage", "search", "ke"],
      ["--help"],
      ["brokerage", "search", "--help"],
      ["---completion", "--", "--env", "2", "0", "deck", "--env", ""],
    ]
    // Configuration also reads the process's own environment (swift-configuration's layer).
    for (name, value) in environment { setenv(name, value, 1) }
    defer { HelperServer.resetEnvironment() }
    let providers = LiveProviders(sandboxFeatures: Registry.sandboxFeatures)
    let failures = Mutex(0)
    let finished = MainThreadRunner.run(timeout: .seconds(30)) {
      for line in lines where await run(arguments: line, environment: environment, providers: providers) != 0 {
        failures.withLock { $0 += 1 }
      }
      // Joins the event loop's thread; the next use (in a child) starts a new one.
      await HTTPTransportFactory.shutDown(completionsOn: .main)
    }
    fflush(nil)
    return finished && failures.withLock { $0 } == 0
  }
}
