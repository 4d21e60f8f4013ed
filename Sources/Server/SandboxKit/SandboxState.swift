import Foundation
import Logging
import Synchronization

/// Everything the handlers share: the database, the options, the admin token, and the
/// operator's fault rules and response delay (stored in the database: ``FaultSettings``).
package final class SandboxState: Sendable {
  package let database: SandboxDatabase
  package let options: SandboxOptions
  /// The operator endpoints' bearer token (stored in the database; kept by a reset).
  let adminToken: String
  /// Signs and checks access tokens with the database's JWT secret (kept by a reset).
  let signer: JWTSigner
  /// The auth service's anon key (the Supabase clients' `apikey`), signed with that secret.
  let anonKey: String
  /// Where unexpected failures are logged (the server's log: stderr under `serve`).
  let logger: Logger
  /// Failed password sign-ins of the last minute (429 past ``SandboxOptions/signInLimits``).
  let signInThrottle: SignInThrottle
  /// Requests in flight and the time of the last one (for ``IdleExit``).
  let activity = Activity()
  /// Answers of read-only routes while the database is unchanged (see ``ResponseCache``).
  package let responseCache: ResponseCache
  /// The QA runs whose requests this instance served lately (`sandbox status`).
  let qaRuns = QARuns()
  /// The requests this instance answered lately (`deck sandbox logs`).
  let requestLog = RequestLog()
  /// Body limits of paths that take more than the default (see ``SandboxRoutes/limitBodies``).
  let bodyLimits = BodyLimitMiddleware.BodyLimits()
  /// The fault settings as last read, with the database's change stamp they were read under.
  private let cachedFaultSettings = Mutex<(stamp: DatabaseChangeStamp.Stamp, settings: FaultSettings)?>(nil)
  private let listeningPort = Mutex<Int?>(nil)

  private init(
    database: SandboxDatabase, options: SandboxOptions, adminToken: String, signer: JWTSigner, logger: Logger
  ) async throws {
    self.database = database
    self.options = options
    self.logger = logger
    self.signInThrottle = SignInThrottle(limits: options.signInLimits)
    self.adminToken = adminToken
    self.signer = signer
    self.responseCache = ResponseCache(stamp: { [database] in database.changeStamp() })
    self.anonKey = try await signer.anonKey()
  }

  /// Opens the database, migrates it and seeds it when empty. Cheap on an existing database.
  static func open(
    _ options: SandboxOptions, logger: Logger = Logger(label: "deck.sandbox") { _ in SwiftLogNoOpLogHandler() }
  ) async throws -> SandboxState {
    let location = try DatabaseLocation.parse(options.databasePath, environment: ProcessInfo.processInfo.environment)
    let database = try await SandboxDatabase.open(location, features: options.features)
    do {
      try await SandboxSeed.seedIfEmpty(database, features: options.features)
      let token = try await SandboxSeed.ensureAdminToken(database)
      let secret = try await database.read { try await SandboxMeta.value($0, SandboxSeed.jwtSecretKey) }
      guard let secret = secret.flatMap(Hex.decode) else { throw SandboxStateError.missingSecret }
      return try await SandboxState(
        database: database, options: options, adminToken: token, signer: await JWTSigner(secret: secret),
        logger: logger)
    } catch {
      await database.close()
      throw error
    }
  }

  /// Closes the database once the work in flight is done (the server has stopped).
  package func close() async {
    await database.close()
  }

  /// The fault rules and delay in force, for a public request: kept in memory while nothing is
  /// committed to the database (by any process or instance: ``SandboxDatabase/changeStamp()``),
  /// so that an unchanged database costs no query.
  func faultSettings() async throws -> FaultSettings {
    // The stamp is read before the settings: a commit in between leaves them newer than the
    // stamp says, so they are read again next time, never kept too long.
    let stamp = database.changeStamp()
    if let stamp, let cached = cachedFaultSettings.withLock({ $0 }), cached.stamp == stamp {
      return cached.settings
    }
    let settings = try await database.readStatement(FaultSettings.load)
    if let stamp { cachedFaultSettings.withLock { $0 = (stamp, settings) } }
    return settings
  }

  /// Counts a firing of the rule `id` (chosen from the settings the request was read under)
  /// in the database, so that a rule's `times` holds across instances: the write reads the
  /// rules again, and nil means another instance used the rule up (or it was cleared) meanwhile.
  func countFault(id: Int) async throws -> FaultRule? {
    try await database.write { db in
      var rules = try await FaultSettings.rules(db)
      guard let fired = rules.count(id: id) else { return nil }
      try await FaultSettings.save(rules, db)
      return fired
    }
  }

  /// Records the port the server listens on (known only once it is bound when port is 0).
  func didStartListening(port: Int) {
    listeningPort.withLock { $0 = port }
  }

  /// The base of the links the sandbox hands out (checkout pages, join links), from the
  /// server's own configuration and never from a request: `--public-url`, else the address
  /// it listens on (loopback for a wildcard address).
  package var linkBase: String {
    if let publicURL = options.publicURL {
      return publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
    }
    let port = listeningPort.withLock { $0 } ?? options.port
    let host = ["0.0.0.0", "::", "[::]", ""].contains(options.host) ? "127.0.0.1" : options.host
    return SandboxServer.baseURL(host: host, port: port).absoluteString
  }

  /// The host (and port) of ``linkBase``, lowercased, as a Host header names it.
  package var publicAuthority: String? {
    guard let url = URL(string: linkBase), let host = url.host else { return nil }
    let bracketed = host.contains(":") ? "[\(host)]" : host
    return (url.port.map { "\(bracketed):\($0)" } ?? bracketed).lowercased()
  }
}

enum SandboxStateError: Error {
  case missingSecret
  case missingAdminToken
}
