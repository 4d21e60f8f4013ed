import Foundation
import Logging
import NIOPosix
import NIOSSL
import PostgresKit
internal import SQLKit

/// The sandbox's database on PostgreSQL: PostgresNIO's connection pool, running for as long as
/// the database is open, and one more connection that listens for other instances' commits
/// (``PostgresChangeFeed``).
final class PostgresEngine: Sendable {
  private let client: PostgresClient
  private let running: Task<Void, Never>
  /// Raised by every commit of every instance on the database.
  let changes: PostgresChangeFeed
  private let listening: Task<Void, Never>

  /// How many times a write transaction is tried when PostgreSQL reports a serialization
  /// failure or a deadlock (another instance changed the same rows at the same time).
  static let attempts = 20
  /// The advisory lock key migrations run under: "deck-sandbox-migrations", hashed once.
  static let migrationLock: Int64 = 0x6465_636B_6D69_6772

  private init(
    client: PostgresClient, running: Task<Void, Never>, changes: PostgresChangeFeed, listening: Task<Void, Never>
  ) {
    self.client = client
    self.running = running
    self.changes = changes
    self.listening = listening
  }

  deinit {
    running.cancel()
    listening.cancel()
  }

  /// Checks that the database takes one connection (so that a wrong password or TLS setting is
  /// reported at once, with the server's reason: the pool would retry for a minute and then say
  /// only that its circuit breaker tripped), keeps it to listen for changes, then starts the pool.
  static func connect(_ location: PostgresLocation) async throws -> PostgresEngine {
    var logger = Logger(label: "deck-sandbox.postgres")
    logger.logLevel = .critical
    let tls = try tlsConfiguration(location)
    var single = PostgresConnection.Configuration(
      host: location.host, port: location.port, username: location.user, password: location.password,
      database: location.database, tls: try connectionTLS(location.sslMode, tls))
    single.options.connectTimeout = .seconds(10)
    let connectOne: @Sendable () async throws -> PostgresConnection = { [single, logger] in
      try await PostgresConnection.connect(
        on: MultiThreadedEventLoopGroup.singleton.any(), configuration: single, id: 0, logger: logger
      ).get()
    }
    let first: PostgresConnection
    do {
      first = try await connectOne()
    } catch {
      throw PostgresConnectError(location: location, underlying: error)
    }
    let changes = PostgresChangeFeed()
    let listening = Task { await changes.run(first: first, connect: connectOne) }
    var configuration = PostgresClient.Configuration(
      host: location.host, port: location.port, username: location.user, password: location.password,
      database: location.database, tls: clientTLS(location.sslMode, tls))
    configuration.options.maximumConnections = 16
    configuration.options.connectTimeout = .seconds(10)
    let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
    let running = Task { await client.run() }
    let engine = PostgresEngine(client: client, running: running, changes: changes, listening: listening)
    do {
      try await engine.withConnection { db in try await db.execute("SELECT 1") }
    } catch {
      await engine.close()
      throw PostgresConnectError(location: location, underlying: error)
    }
    return engine
  }

  /// Runs `body` in a `SERIALIZABLE` transaction that tells every instance of its commit
  /// (``PostgresChangeFeed``), retried on a serialization failure or a deadlock.
  func write<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
    var attempt = 1
    while true {
      do {
        let result = try await client.withConnection { connection in
          try await SandboxDatabase.transaction(
            connection.sql(queryLogLevel: nil), begin: "BEGIN ISOLATION LEVEL SERIALIZABLE"
          ) { db in
            let result = try await body(db)
            try await db.execute(PostgresChangeFeed.notify)
            return result
          }
        }
        changes.changed()
        return result
      } catch  where attempt < Self.attempts && Self.isRetryable(error) {
        attempt += 1
        // A short, growing, random pause so that the transactions that collided do not collide again.
        try await Task.sleep(for: .milliseconds(Int.random(in: 1...(2 * attempt))))
      }
    }
  }

  func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
    try await client.withConnection { connection in
      try await SandboxDatabase.transaction(
        connection.sql(queryLogLevel: nil), begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }
  }

  func withConnection<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
    try await client.withConnection { connection in try await body(connection.sql(queryLogLevel: nil)) }
  }

  /// Applies the missing migrations on one connection that holds the migration advisory lock,
  /// so that instances starting together apply each migration once.
  func migrate(_ migrations: SchemaMigrations) async throws {
    try await withConnection { db in
      try await db.execute("SELECT pg_advisory_lock(?)", [Self.migrationLock])
      do {
        try await SandboxDatabase.transaction(db, begin: "BEGIN") { db in
          try await migrations.apply(db)
          try await db.execute(PostgresChangeFeed.notify)
        }
      } catch {
        try? await db.execute("SELECT pg_advisory_unlock(?)", [Self.migrationLock])
        throw error
      }
      try await db.execute("SELECT pg_advisory_unlock(?)", [Self.migrationLock])
    }
  }

  func close() async {
    listening.cancel()
    running.cancel()
    _ = await listening.value
    _ = await running.value
  }

  /// 40001 serialization_failure, 40P01 deadlock_detected.
  static func isRetryable(_ error: any Error) -> Bool {
    let state = (error as? SQLFailure)?.code ?? (error as? PSQLError)?.serverInfo?[.sqlState]
    return state == "40001" || state == "40P01"
  }

  /// libpq's sslmode as a TLS configuration (nil: no TLS).
  static func tlsConfiguration(_ location: PostgresLocation) throws -> TLSConfiguration? {
    var configuration = TLSConfiguration.makeClientConfiguration()
    if let root = location.rootCertificate { configuration.trustRoots = .file(root) }
    switch location.sslMode {
    case .disable:
      return nil
    case .allow, .prefer:
      configuration.certificateVerification = .none
    case .require:
      // As libpq: encrypted, and verified only when a root certificate is given.
      configuration.certificateVerification = location.rootCertificate == nil ? .none : .noHostnameVerification
    case .verifyCA:
      configuration.certificateVerification = .noHostnameVerification
    case .verifyFull:
      configuration.certificateVerification = .fullVerification
    }
    return configuration
  }

  static func clientTLS(_ mode: PostgresLocation.SSLMode, _ tls: TLSConfiguration?) -> PostgresClient.Configuration.TLS
  {
    guard let tls else { return .disable }
    return mode == .allow || mode == .prefer ? .prefer(tls) : .require(tls)
  }

  static func connectionTLS(_ mode: PostgresLocation.SSLMode, _ tls: TLSConfiguration?) throws
    -> PostgresConnection.Configuration.TLS
  {
    guard let tls else { return .disable }
    let context = try NIOSSLContext(configuration: tls)
    return mode == .allow || mode == .prefer ? .prefer(context) : .require(context)
  }
}

/// The database did not answer: where (never the password) and why.
package struct PostgresConnectError: Error, CustomStringConvertible {
  let location: PostgresLocation
  let underlying: any Error

  package var description: String {
    var reason = String(describing: underlying)
    if let error = underlying as? PSQLError {
      if let message = error.serverInfo?[.message] {
        reason = message
      } else if error.code == .sslUnsupported {
        reason =
          "the server does not offer TLS (sslmode=\(location.sslMode.rawValue)); turn on ssl in its postgresql.conf, or add ?sslmode=disable for a database on this host"
      } else if error.code == .connectionError {
        let cause = error.underlying.map { ": \($0)" } ?? ""
        reason =
          "no PostgreSQL answers at \(location.host):\(location.port)\(cause); is it running, and listening there?"
      } else {
        reason = "\(error.code)"
      }
    }
    if let password = location.password, !password.isEmpty {
      reason = reason.replacingOccurrences(of: password, with: "***")
    }
    let source =
      location.password == nil
      ? " (no password: give one in the URL, PGPASSWORD or ~/.pgpass)"
      : location.passwordSource.map { " (password from \($0))" } ?? ""
    return "Cannot connect to \(location)\(source): \(reason)"
  }
}
