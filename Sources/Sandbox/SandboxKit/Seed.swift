import Crypto
import Foundation
import GRDB

/// Default data of a fresh sandbox, resets and synthetic data for benchmarks.
package enum SandboxSeed {
  package static let demoEmail = "owner@sandbox.test"
  package static let demoPassword = "sandbox"
  /// `Bcrypt.hash("sandbox", cost: 10)`, precomputed so that seeding never pays for bcrypt.
  package static let demoPasswordHash = "$2b$10$TMLzaSJnv9Y3DiDCPOhrwOD3klcIS1r66IaK2Cg.AlNj4ITOAn2wu"
  package static let demoUserID = NameUUID.make(
    namespace: UUID(uuidString: "0B7E3A0C-59D4-4E61-8C1F-7A2D6B9E4F10")!, name: demoEmail
  ).uuidString.lowercased()

  /// The meta key of the JWT signing secret (hex).
  static let jwtSecretKey = "jwt_secret"
  /// The meta key of the operator endpoints' admin token (hex). Made once per database; a
  /// reset keeps it, so that the clients that stored it keep working.
  static let adminTokenKey = "admin_token"
  /// Seeds the defaults unless the database was seeded already. One read when it was.
  static func seedIfEmpty(_ pool: DatabasePool, features: [any SandboxFeature.Type]) throws {
    if try pool.read(isSeeded) { return }
    try pool.write { db in
      if try !isSeeded(db) { try seedDefaults(db, features: features) }
    }
  }

  static func isSeeded(_ db: Database) throws -> Bool {
    try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM meta WHERE key = ?)", arguments: [jwtSecretKey])
      ?? false
  }

  /// Inserts whatever default data is missing: the JWT secret, the demo account, then each
  /// feature's defaults, in registry order. Existing rows are kept.
  static func seedDefaults(_ db: Database, features: [any SandboxFeature.Type]) throws {
    let context = SeedContext(features: features)
    try context.createUser(db, id: demoUserID, email: demoEmail, passwordHash: demoPasswordHash)
    for feature in features { try feature.seed(db, sandbox: context) }
    try db.execute(
      sql: "INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)",
      arguments: [jwtSecretKey, newSecret()])
  }

  /// Drops all data (every table, including feature tables) and seeds the defaults again.
  /// The JWT secret and the admin token are kept, so the anon key and the operator clients
  /// stay valid; every session is gone, so every outstanding access and refresh token stops working.
  static func reset(_ db: Database, features: [any SandboxFeature.Type]) throws {
    let jwtSecret = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [jwtSecretKey])
    let adminToken = try String.fetchOne(
      db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [adminTokenKey])
    try SandboxDatabase.deleteAllData(db)
    if let jwtSecret {
      try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, ?)", arguments: [jwtSecretKey, jwtSecret])
    }
    if let adminToken {
      try db.execute(
        sql: "INSERT INTO meta (key, value) VALUES (?, ?)", arguments: [adminTokenKey, adminToken])
    }
    try seedDefaults(db, features: features)
  }

  /// The database's admin token, made (random, 256 bits) the first time.
  static func ensureAdminToken(_ pool: DatabasePool) throws -> String {
    let read = { (db: Database) in
      try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [adminTokenKey])
    }
    if let token = try pool.read(read) { return token }
    return try pool.write { db in
      try db.execute(
        sql: "INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)", arguments: [adminTokenKey, newSecret()])
      guard let token = try read(db) else { throw SandboxStateError.missingAdminToken }
      return token
    }
  }

  /// After a reset or a large seed: fold the WAL into the database and truncate it, and with
  /// `vacuum`, give the space of deleted rows back. Best effort (other processes may be reading).
  static func compact(_ pool: DatabasePool, vacuum: Bool) async {
    try? await pool.writeWithoutTransaction { db in
      if vacuum { try db.execute(sql: "VACUUM") }
      try db.checkpoint(.truncate)
    }
  }

  /// 32 random bytes, hex-encoded.
  static func newSecret() -> String {
    SymmetricKey(size: .bits256).withUnsafeBytes { Hex.encode($0) }
  }
}

/// The `meta` table: the sandbox's own settings (secrets, counters), one text value per key.
package enum SandboxMeta {
  package static func value(_ db: Database, _ key: String) throws -> String? {
    try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key])
  }

  package static func int(_ db: Database, _ key: String) throws -> Int? {
    try value(db, key).flatMap { Int($0) }
  }

  package static func set(_ db: Database, _ key: String, _ value: String) throws {
    try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", arguments: [key, value])
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
