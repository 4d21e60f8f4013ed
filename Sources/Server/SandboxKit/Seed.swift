import Crypto
import Foundation
package import SQLKit

/// Default data of a fresh sandbox, resets and synthetic data for benchmarks.
package enum SandboxSeed {
  package static let demoEmail = "owner@sandbox.test"
  package static let demoPassword = "sandbox"
  /// `Bcrypt.hash("sandbox", cost: 4)` (``Passwords/cost``), precomputed so that seeding never
  /// pays for bcrypt.
  package static let demoPasswordHash = "$2b$04$wxHEKbdZ8gvnRUjEmCBQlOK61LCV3pgaE3jh0tks624Ne2InZU.ye"
  package static let demoUserID = NameUUID.make(
    namespace: UUID(uuidString: "0B7E3A0C-59D4-4E61-8C1F-7A2D6B9E4F10")!, name: demoEmail
  ).uuidString.lowercased()

  /// The meta key of the JWT signing secret (hex).
  static let jwtSecretKey = "jwt_secret"
  /// The meta key of the operator endpoints' admin token (hex). Made once per database; a
  /// reset keeps it, so that the clients that stored it keep working.
  static let adminTokenKey = "admin_token"
  /// Seeds the defaults unless the database was seeded already. One read when it was.
  static func seedIfEmpty(_ database: SandboxDatabase, features: [any SandboxFeature.Type]) async throws {
    if try await database.read(isSeeded) { return }
    try await database.write { db in
      if try await !isSeeded(db) { try await seedDefaults(db, features: features) }
    }
  }

  @Sendable static func isSeeded(_ db: any SQLDatabase) async throws -> Bool {
    try await SandboxMeta.value(db, jwtSecretKey) != nil
  }

  /// Inserts whatever default data is missing: the JWT secret, the demo account, then each
  /// feature's defaults, in registry order. Existing rows are kept.
  static func seedDefaults(_ db: any SQLDatabase, features: [any SandboxFeature.Type]) async throws {
    let context = SeedContext(features: features)
    try await context.createUser(db, id: demoUserID, email: demoEmail, passwordHash: demoPasswordHash)
    for feature in features { try await feature.seed(db, sandbox: context) }
    try await SandboxMeta.insertIfMissing(db, jwtSecretKey, newSecret())
  }

  /// Drops all data (every table, including feature tables) and seeds the defaults again.
  /// The JWT secret and the admin token are kept, so the anon key and the operator clients
  /// stay valid; every session is gone, so every outstanding access and refresh token stops working.
  static func reset(_ db: any SQLDatabase, features: [any SandboxFeature.Type]) async throws {
    let jwtSecret = try await SandboxMeta.value(db, jwtSecretKey)
    let adminToken = try await SandboxMeta.value(db, adminTokenKey)
    try await SandboxDatabase.deleteAllData(db)
    if let jwtSecret { try await SandboxMeta.set(db, jwtSecretKey, jwtSecret) }
    if let adminToken { try await SandboxMeta.set(db, adminTokenKey, adminToken) }
    try await seedDefaults(db, features: features)
  }

  /// The database's admin token, made (random, 256 bits) the first time.
  static func ensureAdminToken(_ database: SandboxDatabase) async throws -> String {
    if let token = try await database.read({ try await SandboxMeta.value($0, adminTokenKey) }) { return token }
    return try await database.write { db in
      try await SandboxMeta.insertIfMissing(db, adminTokenKey, newSecret())
      guard let token = try await SandboxMeta.value(db, adminTokenKey) else {
        throw SandboxStateError.missingAdminToken
      }
      return token
    }
  }

  /// After a reset or a large seed: fold the WAL into the database and truncate it, and with
  /// `vacuum`, give the space of deleted rows back; on PostgreSQL, update the planner's
  /// statistics. Best effort (other processes may be reading).
  static func compact(_ database: SandboxDatabase, vacuum: Bool) async {
    guard database.path != nil else {
      // PostgreSQL: fresh statistics, or the planner picks its plans blind until autovacuum
      // gets round to the new rows (a search takes seconds right after a large seed).
      try? await database.writeWithoutTransaction { db in try await db.execute("ANALYZE") }
      return
    }
    try? await database.writeWithoutTransaction { db in
      if vacuum { try await db.execute("VACUUM") }
      try await db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
  }

  /// 32 random bytes, hex-encoded.
  static func newSecret() -> String {
    SymmetricKey(size: .bits256).withUnsafeBytes { Hex.encode($0) }
  }
}

/// The `meta` table: the sandbox's own settings (secrets, counters), one text value per key.
package enum SandboxMeta {
  package static func value(_ db: any SQLDatabase, _ key: String) async throws -> String? {
    try await db.fetchValue(String.self, "SELECT value FROM meta WHERE key = ?", [key])
  }

  package static func int(_ db: any SQLDatabase, _ key: String) async throws -> Int? {
    try await value(db, key).flatMap { Int($0) }
  }

  package static func set(_ db: any SQLDatabase, _ key: String, _ value: String) async throws {
    try await db.execute(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      [key, value])
  }

  /// Sets `key` unless it has a value already.
  static func insertIfMissing(_ db: any SQLDatabase, _ key: String, _ value: String) async throws {
    try await db.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", [key, value])
  }
}

package enum Hex {
  package static func encode(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var result = [UInt8]()
    for byte in bytes {
      result.append(digits[Int(byte >> 4)])
      result.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: result, as: UTF8.self)
  }

  package static func decode(_ text: String) -> [UInt8]? {
    let utf8 = Array(text.utf8)
    guard utf8.count % 2 == 0 else { return nil }
    var bytes = [UInt8]()
    bytes.reserveCapacity(utf8.count / 2)
    var index = 0
    while index < utf8.count {
      guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
      bytes.append(high << 4 | low)
      index += 2
    }
    return bytes
  }

  private static func value(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}

package enum Timestamps {
  /// Now as ISO 8601 (UTC), the format of GoTrue's `created_at`.
  package static func now() -> String {
    Date().formatted(.iso8601)
  }

  package static func unixNow() -> Int {
    Int(Date().timeIntervalSince1970)
  }
}
