import Foundation
import GRDB
import Synchronization

/// Everything the handlers share: the database, the options and the in-memory response delay.
final class SandboxState: Sendable {
  let pool: DatabasePool
  let options: SandboxOptions
  private let delay = Mutex<Int>(0)

  init(pool: DatabasePool, options: SandboxOptions) {
    self.pool = pool
    self.options = options
  }

  /// Opens the database, migrates it and seeds it when empty. Cheap on an existing database.
  static func open(_ options: SandboxOptions) throws -> SandboxState {
    let pool = try SandboxDatabase.open(path: options.databasePath)
    try SandboxSeed.seedIfEmpty(pool)
    return SandboxState(pool: pool, options: options)
  }

  /// How long every non-admin response is delayed, in milliseconds.
  var delayMilliseconds: Int {
    get { delay.withLock { $0 } }
    set { delay.withLock { $0 = newValue } }
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
}
