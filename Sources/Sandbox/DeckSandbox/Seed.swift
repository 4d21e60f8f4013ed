import Crypto
import Foundation
import GRDB

/// Default data of a fresh sandbox, resets and synthetic data for benchmarks.
enum SandboxSeed {
  static let demoEmail = "owner@sandbox.test"
  static let demoPassword = "sandbox"
  /// `Bcrypt.hash("sandbox", cost: 10)`, precomputed so that seeding never pays for bcrypt.
  static let demoPasswordHash = "$2b$10$TMLzaSJnv9Y3DiDCPOhrwOD3klcIS1r66IaK2Cg.AlNj4ITOAn2wu"
  static let demoUserID = NameUUID.make(
    namespace: UUID(uuidString: "0B7E3A0C-59D4-4E61-8C1F-7A2D6B9E4F10")!, name: demoEmail
  ).uuidString.lowercased()

  /// The meta key of the JWT signing secret (hex).
  static let jwtSecretKey = "jwt_secret"
  /// The meta key of the operator endpoints' admin token (hex). Made once per database; a
  /// reset keeps it, so that the clients that stored it keep working.
  static let adminTokenKey = "admin_token"
  /// The meta key of how many synthetic brokerages were generated so far.
  static let syntheticCountKey = "synthetic_brokerages"

  /// Seeds the defaults unless the database was seeded already. One read when it was.
  static func seedIfEmpty(_ pool: DatabasePool) throws {
    if try pool.read(isSeeded) { return }
    try pool.write { db in
      if try !isSeeded(db) { try seedDefaults(db) }
    }
  }

  static func isSeeded(_ db: Database) throws -> Bool {
    try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM meta WHERE key = ?)", arguments: [jwtSecretKey])
      ?? false
  }

  /// Inserts whatever default data is missing: canonical brokerages, the demo account and
  /// the JWT secret. Existing rows are kept.
  static func seedDefaults(_ db: Database) throws {
    let writer = try BrokerageWriter(db)
    for name in CanonicalBrokerages.names {
      try writer.insert(name: name)
    }
    try db.execute(
      sql: """
        INSERT OR IGNORE INTO users (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)
        """,
      arguments: [demoUserID, demoEmail, demoPasswordHash, Timestamps.now()])
    if db.changesCount > 0 { try NewUserHooks.run(db, userID: demoUserID, email: demoEmail) }
    try WorkspaceSeed.seed(db)
    try KioskSeed.seed(db)
    try db.execute(
      sql: "INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)",
      arguments: [jwtSecretKey, newSecret()])
  }

  /// Drops all data (every table, including feature tables) and seeds the defaults again.
  /// The JWT secret and the admin token are kept, so the anon key and the operator clients
  /// stay valid; every session is gone, so every outstanding access and refresh token stops working.
  static func reset(_ db: Database) throws {
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
    try seedDefaults(db)
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

  /// Generates `count` more synthetic brokerages, continuing the deterministic sequence.
  static func addSyntheticBrokerages(_ count: Int, _ db: Database) throws {
    guard count > 0 else { return }
    let start =
      try Int.fetchOne(db, sql: "SELECT CAST(value AS INTEGER) FROM meta WHERE key = ?", arguments: [syntheticCountKey])
      ?? 0
    let writer = try BrokerageWriter(db)
    for index in start..<(start + count) {
      try writer.insert(name: SyntheticBrokerages.name(at: index))
    }
    try db.execute(
      sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
      arguments: [syntheticCountKey, String(start + count)])
  }

  /// 32 random bytes, hex-encoded.
  static func newSecret() -> String {
    SymmetricKey(size: .bits256).withUnsafeBytes { Hex.encode($0) }
  }
}

/// Plausible, unique and deterministic synthetic brokerage names ("Summit Ridge Realty Group 1234").
enum SyntheticBrokerages {
  private static let first = [
    "Summit", "Cedar", "Harbor", "Maple", "Willow", "Granite", "Aspen", "Birch", "Canyon", "Meadow",
    "Valley", "Highland", "Coastal", "Prairie", "Golden", "Silver", "Blue Sky", "Pine", "River", "Lake",
    "Liberty", "Heritage", "Legacy", "Pioneer", "Frontier", "Keystone", "Cornerstone", "Landmark", "Crown",
    "Sterling", "Beacon", "Horizon", "Sunrise", "Evergreen", "Magnolia", "Dogwood", "Cypress", "Sequoia",
    "Redwood", "Cardinal", "Falcon", "Eagle", "Lighthouse", "Harvest", "Orchard", "Bayside", "Northstar",
    "Westfield", "Eastgate", "Southern", "Northern", "Pacific", "Atlantic", "Copper", "Iron Horse",
    "Stonebridge", "Oakmont", "Fairview", "Brookside", "Lakeview", "Riverbend", "Hillcrest", "Timber",
    "Bluewater",
  ]
  private static let second = [
    "Ridge", "Creek", "Park", "Point", "Hills", "Grove", "Crossing", "Station", "Square", "Landing",
    "Springs", "Heights", "Shores", "Trail", "Gate", "View", "Woods", "Field", "Haven", "Peak", "Bay",
    "Valley", "Commons", "Harbor", "Mill", "Bridge", "Pointe", "Meadows", "Pines", "Oaks", "Glen", "Bluff",
  ]
  private static let kinds = [
    "Realty", "Real Estate", "Realty Group", "Properties", "Homes", "Realtors", "Real Estate Group",
    "Property Group", "Realty Partners", "Home Team", "Brokerage", "Estates", "Realty Associates",
    "Real Estate Services", "Residential", "Land & Homes",
  ]

  /// The synthetic name number `index` (0-based). The trailing office number makes names unique.
  static func name(at index: Int) -> String {
    var mixed = UInt64(truncatingIfNeeded: index) &+ 0x9E37_79B9_7F4A_7C15
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    mixed ^= mixed >> 31
    let a = first[Int(mixed % UInt64(first.count))]
    let b = second[Int((mixed / 64) % UInt64(second.count))]
    let c = kinds[Int((mixed / 4096) % UInt64(kinds.count))]
    return "\(a) \(b) \(c) \(index + 1)"
  }
}

enum Hex {
  static func encode(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var result = [UInt8]()
    for byte in bytes {
      result.append(digits[Int(byte >> 4)])
      result.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: result, as: UTF8.self)
  }

  static func decode(_ text: String) -> [UInt8]? {
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

enum Timestamps {
  /// Now as ISO 8601 (UTC), the format of GoTrue's `created_at`.
  static func now() -> String {
    Date().formatted(.iso8601)
  }

  static func unixNow() -> Int {
    Int(Date().timeIntervalSince1970)
  }
}
