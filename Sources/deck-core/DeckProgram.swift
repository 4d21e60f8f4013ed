import DeckApp
import DeckCore
import DeckHTTPTransport
import DeckHelper
import DeckLive
import DeckREPL
import DeckSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// deck-core's program: a command line, the REPL or script mode, in this process or in a child
/// of the start-up helper (docs/HELPER.md), which it also is when started as one.
enum DeckProgram {
  /// Runs `arguments` (without the program name) as deck does, and exits with its code.
  static func start(arguments: [String], environment: [String: String]) -> Never {
    Task { @MainActor in exit(await run(arguments: arguments, environment: environment)) }
    dispatchMain()
  }

  /// One command line, the REPL (no arguments, a terminal) or script mode (no arguments, a pipe
  /// or a file; or `run`).
  static func run(
    arguments: [String], environment: [String: String], providers: LiveProviders? = nil
  ) async -> Int32 {
    // Tokens given through the environment are read from `environment` (the session's copy);
    // the process's own environment drops them before any thread starts, so nothing deck
    // starts or evaluates (a plugin, an editor, jq's `$ENV` and `env` in --jq) can print them.
    for secret in ["DECK_TOKEN", "DECK_SANDBOX_ADMIN_TOKEN"] { unsetenv(secret) }
    let scriptMode = (arguments.isEmpty && isatty(0) == 0) || arguments.first == "run"
    var output = Output.standard(environment: environment)
    if scriptMode { output = output.withoutColor() }
    DeckRegistry.install(Registry.modules)
    let session = DeckSession(
      processEnvironment: environment,
      providers: providers ?? LiveProviders(sandboxFeatures: Registry.sandboxFeatures),
      output: output, lineReader: ReadlineLineReader(), registry: Registry.modules)
    CompletionSession.register { session }
    DynamicCompletion.register(Registry.modules.completionProviders)
    DeckShell.register(root: Deck.self)
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
    // WIP knobs, read before the environment is dropped.
    let warmURL = getenv("DECK_HELPER_WARM_URL").map { String(cString: $0) }
    let warmLines = getenv("DECK_HELPER_WARM_LINES").flatMap { Int(String(cString: $0)) }
    clearenv()
    setenv("PATH", "/usr/local/bin:/usr/bin:/bin", 1)
    HelperServer(socketPath: socketPath, idleSeconds: idle).serve(warmUp: { warmUp(url: warmURL, lines: warmLines) }) { connection, inherited in
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
  /// shell completion path, and a search's whole round trip (client, generated code, JSON,
  /// the sandbox server) against a private embedded sandbox in a temporary HOME. Output goes to
  /// /dev/null (the helper's stdio). Then the HTTP client and its event loop are shut down, so
  /// the helper can become single-threaded.
  static func warmUp(url: String?, lines only: Int?) -> Bool {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("deck-helper-\(getpid())").path
    defer { try? FileManager.default.removeItem(atPath: home) }
    guard (try? FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)) != nil
    else { return false }
    var environment = ["HOME": home, "PATH": "/usr/local/bin:/usr/bin:/bin", "NO_COLOR": "1"]
    // WIP: a sandbox served by another process (the embedded one starts libdispatch threads).
    if let url {
      environment["DECK_ENV"] = "local"
      environment["DECK_FLYR_URL"] = url
    }
    let lines: [[String]] = [
      ["brokerage", "search", "keller", "--json"],
      ["brokerage", "search", "ke"],
      ["--help"],
      ["brokerage", "search", "--help"],
      ["---completion", "--", "--env", "2", "0", "deck", "--env", ""],
      ["---completion", "brokerage", "search", "--", "positional@0", "3", "4", "deck", "brokerage", "search", "kel"],
    ]
    // Configuration also reads the process's own environment (swift-configuration's layer).
    for (name, value) in environment { setenv(name, value, 1) }
    defer {
      clearenv()
      setenv("PATH", "/usr/local/bin:/usr/bin:/bin", 1)
    }
    let providers = LiveProviders(sandboxFeatures: Registry.sandboxFeatures)
    let finished = MainThreadRunner.run(timeout: .seconds(30)) {
      for line in lines.prefix(only ?? lines.count) { _ = await run(arguments: line, environment: environment, providers: providers) }
      await providers.stopEmbeddedSandbox()
      // Joins the event loop's thread; the next use (in a child) starts a new one.
      await HTTPTransportFactory.shutDown(completionsOn: .main)
    }
    fflush(nil)
    return finished
  }
}
