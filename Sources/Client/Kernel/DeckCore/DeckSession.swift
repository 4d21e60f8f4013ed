import DeckConfig
import DeckSupport
import FoundationEssentials
import OpenAPIRuntime
import SandboxLaunch
import Synchronization

/// What the executable plugs into the core: the parts that need NIO. Keeping them behind this
/// protocol keeps the core, the command tree and the spec logic free of NIO.
public protocol ServiceProviders: Sendable {
  /// An HTTP transport on the shared connection pool, with this per-request timeout.
  func makeTransport(timeout: Duration) -> any ClientTransport
  /// Opens a TLS connection to host:port and returns when the server's certificate expires
  /// (its notAfter). The chain is not verified here: an HTTP request does that.
  func certificateExpiry(host: String, port: Int, timeout: Duration) async throws -> Date
  /// Whether host:port accepts a TCP connection within `timeout` (closed again at once): tells
  /// a server that is slow to answer from one that is not there.
  func acceptsConnection(host: String, port: Int, timeout: Duration) async -> Bool
  /// Runs `body` (the lines of a script) preferring the HTTP client's own thread, so that a
  /// line's request and its answer are not handed between threads.
  func preferringClientThread<T: Sendable>(_ body: () async -> T) async -> T
}

extension ServiceProviders {
  /// Without a client thread of its own, the body runs where it is.
  public func preferringClientThread<T: Sendable>(_ body: () async -> T) async -> T { await body() }
}

/// The long-lived shared services of one deck process: one per one-shot run, one per REPL.
/// Everything in it is built on first use, so `deck --help` opens no socket, database or file.
public final class DeckSession: Sendable {
  public let processEnvironment: [String: String]
  public let paths: DeckPaths
  public let providers: any ServiceProviders
  /// Where the session's commands write: its streams, or, while a script's `let` line runs
  /// (``capturingStdout(into:_:)``), the same with stdout captured.
  public var output: Output { Self.capturedOutput ?? standardOutput }
  private let standardOutput: Output
  /// The output of the command that runs in this task, when its stdout is captured.
  @TaskLocal private static var capturedOutput: Output?
  /// Questions to the person at the terminal (GNU readline in the executable); nil where
  /// nobody can be asked.
  public let lineReader: (any LineReading)?
  /// The registered modules.
  public let registry: DeckRegistry

  /// The session in which commands run (set by `DeckRunner`).
  @TaskLocal public static var current: DeckSession?

  private let transports = Mutex<[Duration: any ClientTransport]>([:])
  private let localSandboxTask = Mutex<Task<LocalSandboxRecord, any Error>?>(nil)
  /// The session runs many lines (the REPL or a script), not one command.
  public let runsManyLines = Mutex(false)
  /// An environment chosen for this session only (the REPL's `use ENV`); the `--env` flag still wins.
  public let sessionEnvironment = Mutex<String?>(nil)

  public init(
    processEnvironment: [String: String], providers: any ServiceProviders, output: Output,
    lineReader: (any LineReading)? = nil, registry: DeckRegistry = DeckRegistry([])
  ) {
    self.processEnvironment = processEnvironment
    self.paths = DeckPaths(environment: processEnvironment)
    self.providers = providers
    self.standardOutput = output
    self.lineReader = lineReader
    self.registry = registry
    ServiceCatalog.register(registry.services)
  }

  /// Runs `body` (a command line) with everything the session's commands print to stdout
  /// given to `sink` instead; stderr is unchanged. Script mode's `let NAME = COMMAND`.
  public func capturingStdout<T: Sendable>(
    into sink: @escaping @Sendable (String) -> Void, _ body: () async -> T
  ) async -> T {
    await Self.$capturedOutput.withValue(standardOutput.capturingStdout(sink)) { await body() }
  }

  /// The transport for a timeout; all of them share one connection pool.
  public func transport(timeout: Duration) -> any ClientTransport {
    transports.withLock { cache in
      if let transport = cache[timeout] { return transport }
      let transport = providers.makeTransport(timeout: timeout)
      cache[timeout] = transport
      return transport
    }
  }

  /// The local sandbox of the default environment (see ``LocalSandbox``).
  public var localSandbox: LocalSandbox { LocalSandbox(paths: paths, environment: processEnvironment) }

  /// The local sandbox's record, starting or replacing the server on first use (what was
  /// wrong with an old one is said on stderr). The record is kept for the session, and looked
  /// at again when its server has gone (a REPL left idle past the server's idle timeout).
  public func localSandboxRecord() async throws -> LocalSandboxRecord {
    // The database lives in the data directory: refuse one other users can write to.
    try SecureDirectory.check(paths.dataDirectory)
    while true {
      let (task, cached) = localSandboxTask.withLock { task in
        if let task { return (task, true) }
        let (sandbox, output) = (localSandbox, output)
        let started = Task { try await sandbox.ensure { output.info($0) } }
        task = started
        return (started, false)
      }
      let record: LocalSandboxRecord
      do {
        record = try await task.value
      } catch {
        localSandboxTask.withLock { $0 = nil }
        throw error
      }
      if cached, !record.serverRuns {
        localSandboxTask.withLock { if $0 == task { $0 = nil } }
        continue
      }
      return record
    }
  }

  /// The local sandbox's base URL (see ``localSandboxRecord()``).
  public func localSandboxURL() async throws -> URL {
    let record = try await localSandboxRecord()
    guard let url = URL(string: record.url) else {
      throw DeckError(
        .unavailable(status: nil),
        "The local sandbox's record has no usable URL (\(TerminalText.sanitize(record.url))).",
        hint: "Restart it: deck sandbox stop")
    }
    return url
  }

  public func configStore() -> ConfigStore { ConfigStore(path: paths.configFile) }

  private struct Resolution {
    var flag: String?
    var file: Data?
    var environment: ResolvedEnvironment
  }
  private let lastResolution = Mutex<Resolution?>(nil)

  /// The environment for a `--env` value (or nil). The config file is read every time, so
  /// an edit takes effect on the next command; it is parsed again only when it changed.
  public func resolveEnvironment(flag: String?) throws -> ResolvedEnvironment {
    let store = configStore()
    let data = store.read()
    if let last = lastResolution.withLock({ $0 }), last.flag == flag, last.file == data { return last.environment }
    let resolver = EnvironmentResolver(file: try store.parse(data), processEnvironment: processEnvironment)
    let environment = try resolver.resolve(flag: flag)
    lastResolution.withLock { $0 = Resolution(flag: flag, file: data, environment: environment) }
    return environment
  }
}
