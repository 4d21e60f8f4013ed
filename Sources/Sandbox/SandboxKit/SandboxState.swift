import Foundation
import GRDB
import Synchronization

/// Everything the handlers share: the database, the options, the admin token, and the
/// in-memory response delay and fault rules.
package final class SandboxState: Sendable {
  package let pool: DatabasePool
  package let options: SandboxOptions
  /// The operator endpoints' bearer token (stored in the database; kept by a reset).
  let adminToken: String
  let faults = FaultRules()
  private let delay = Mutex<Int>(0)
  private let listeningPort = Mutex<Int?>(nil)

  init(pool: DatabasePool, options: SandboxOptions, adminToken: String) {
    self.pool = pool
    self.options = options
    self.adminToken = adminToken
  }

  /// Opens the database, migrates it and seeds it when empty. Cheap on an existing database.
  static func open(_ options: SandboxOptions) throws -> SandboxState {
    let pool = try SandboxDatabase.open(path: options.databasePath, features: options.features)
    try SandboxSeed.seedIfEmpty(pool, features: options.features)
    let token = try SandboxSeed.ensureAdminToken(pool)
    return SandboxState(pool: pool, options: options, adminToken: token)
  }

  /// How long every non-admin response is delayed, in milliseconds.
  var delayMilliseconds: Int {
    get { delay.withLock { $0 } }
    set { delay.withLock { $0 = newValue } }
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

  /// The JWT signer for the secret currently stored in the database (a reset replaces it).
  func signer(_ db: Database) throws -> JWTSigner {
    guard
      let hex = try String.fetchOne(
        db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [SandboxSeed.jwtSecretKey]),
      let secret = Hex.decode(hex)
    else { throw SandboxStateError.missingSecret }
    return JWTSigner(secret: secret)
  }
}

enum SandboxStateError: Error {
  case missingSecret
  case missingAdminToken
}
