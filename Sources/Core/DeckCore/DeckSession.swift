import DeckConfig
import DeckSupport
import Foundation
import OpenAPIRuntime
import Synchronization

/// What the executable plugs into the core: the parts that need NIO or the sandbox server.
/// Keeping them behind this protocol keeps the core, the command tree and the spec logic
/// free of NIO, GRDB and Hummingbird.
public protocol ServiceProviders: Sendable {
  /// An HTTP transport on the shared connection pool, with this per-request timeout.
  func makeTransport(timeout: Duration) -> any ClientTransport
  /// Starts the sandbox server in this process on an ephemeral loopback port.
  func startEmbeddedSandbox(databasePath: String) async throws -> URL
  /// Serves the sandbox in the foreground until SIGINT or SIGTERM; onListening gets its URL
  /// and keys once it listens.
  func serveSandbox(_ request: SandboxServeRequest, onListening: @escaping @Sendable (ServedSandbox) -> Void)
    async throws
  /// The admin token of the embedded sandbox once it runs (read from its database), else nil.
  func embeddedSandboxAdminToken() -> String?
  /// What is on disk at a sandbox database path, read only (nothing is created or migrated);
  /// nil when there is no database there.
  func sandboxDatabaseInfo(databasePath: String) throws -> SandboxDatabaseInfo?
  /// Opens a TLS connection to host:port and returns when the server's certificate expires
  /// (its notAfter). The chain is not verified here: an HTTP request does that.
  func certificateExpiry(host: String, port: Int, timeout: Duration) async throws -> Date
}

/// A sandbox database as `deck doctor` reports it.
public struct SandboxDatabaseInfo: Sendable, Equatable {
  /// Bytes on disk, the write-ahead log included.
  public var size: Int64
  /// The schema migrations recorded in the database.
  public var appliedMigrations: [String]
  /// The schema migrations this deck knows, in order.
  public var knownMigrations: [String]
  public init(size: Int64, appliedMigrations: [String], knownMigrations: [String]) {
    self.size = size
    self.appliedMigrations = appliedMigrations
    self.knownMigrations = knownMigrations
  }
}

/// A sandbox that `serveSandbox` started: where it listens, the operator endpoints' admin token,
/// and the auth service's anon key (the Supabase clients' `apikey`, public by design).
public struct ServedSandbox: Sendable {
  public let url: URL
  public let adminToken: String
  public let anonKey: String

  public init(url: URL, adminToken: String, anonKey: String) {
    self.url = url
    self.adminToken = adminToken
    self.anonKey = anonKey
  }
}

public struct SandboxServeRequest: Sendable {
  public var host: String
  public var port: Int
  public var databasePath: String
  public var accessTokenTTL: Int
  /// The base URL of the links the sandbox hands out; nil: its own address.
  public var publicURL: String?
  public init(host: String, port: Int, databasePath: String, accessTokenTTL: Int, publicURL: String? = nil) {
    self.host = host
    self.port = port
    self.databasePath = databasePath
    self.accessTokenTTL = accessTokenTTL
    self.publicURL = publicURL
  }
}

/// The long-lived shared services of one deck process: one per one-shot run, one per REPL.
/// Everything in it is built on first use, so `deck --help` opens no socket, database or file.
public final class DeckSession: Sendable {
  public let processEnvironment: [String: String]
  public let paths: DeckPaths
  public let providers: any ServiceProviders
  public let output: Output
  /// Questions to the person at the terminal (GNU readline in the executable); nil where
  /// nobody can be asked.
  public let lineReader: (any LineReading)?
  /// The registered modules.
  public let registry: DeckRegistry

  /// The session in which commands run (set by `DeckRunner`).
  @TaskLocal public static var current: DeckSession?

  private let transports = Mutex<[Duration: any ClientTransport]>([:])
  private let embeddedSandbox = Mutex<Task<URL, any Error>?>(nil)
  /// An environment chosen for this session only (the REPL's `use ENV`); the `--env` flag still wins.
  public let sessionEnvironment = Mutex<String?>(nil)

  public init(
    processEnvironment: [String: String], providers: any ServiceProviders, output: Output,
    lineReader: (any LineReading)? = nil, registry: DeckRegistry = DeckRegistry([])
  ) {
    self.processEnvironment = processEnvironment
    self.paths = DeckPaths(environment: processEnvironment)
    self.providers = providers
    self.output = output
    self.lineReader = lineReader
    self.registry = registry
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

  /// The embedded sandbox's base URL, starting it on first use (once per process).
  public func embeddedSandboxURL() async throws -> URL {
    // The database lives in the data directory: refuse one other users can write to.
    try SecureDirectory.check(paths.dataDirectory)
    let task = embeddedSandbox.withLock { task in
      if let task { return task }
      let path = paths.sandboxDatabase
      let providers = providers
      let started = Task { try await providers.startEmbeddedSandbox(databasePath: path) }
      task = started
      return started
    }
    do {
      return try await task.value
    } catch let error as DeckError {
      throw error
    } catch {
      embeddedSandbox.withLock { $0 = nil }
      throw DeckError(
        .unavailable(status: nil), "Cannot start the embedded sandbox: \(error)",
        hint: "Its database is \(paths.sandboxDatabase); `deck sandbox reset` starts it over.")
    }
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
