import Foundation
import GRDB
import HummingbirdBcrypt

/// A row of `users`.
struct UserRecord: Sendable, Equatable {
  var id: String
  var email: String
  var passwordHash: String
  var createdAt: String

  init(id: String, email: String, passwordHash: String, createdAt: String) {
    self.id = id
    self.email = email
    self.passwordHash = passwordHash
    self.createdAt = createdAt
  }

  init(row: Row) {
    self.init(id: row["id"], email: row["email"], passwordHash: row["password_hash"], createdAt: row["created_at"])
  }

  static func fetch(_ db: Database, id: String) throws -> UserRecord? {
    try Row.fetchOne(db, sql: "SELECT * FROM users WHERE id = ?", arguments: [id]).map(UserRecord.init(row:))
  }

  static func fetch(_ db: Database, email: String) throws -> UserRecord? {
    try Row.fetchOne(db, sql: "SELECT * FROM users WHERE email = ?", arguments: [email]).map(UserRecord.init(row:))
  }

  func insert(_ db: Database) throws {
    try db.execute(
      sql: "INSERT INTO users (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)",
      arguments: [id, email, passwordHash, createdAt])
  }
}

/// Bcrypt hashing, off the cooperative thread pool (it is deliberately slow).
enum Passwords {
  /// Low for a sandbox: logins stay quick, and the data is not real.
  static let cost: UInt8 = 10
  static let minimumLength = 6

  static func hash(_ password: String) async -> String {
    await offload { Bcrypt.hash(password, cost: cost) }
  }

  static func verify(_ password: String, hash: String) async -> Bool {
    await offload { Bcrypt.verify(password, hash: hash) }
  }

  private static func offload<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async { continuation.resume(returning: work()) }
    }
  }
}

enum EmailAddress {
  /// Trimmed and lowercased.
  static func normalize(_ email: String) -> String {
    email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
  }

  /// A plausible address: one "@", a non-empty local part, a dotted domain, no whitespace.
  static func isValid(_ email: String) -> Bool {
    guard email.count <= 254, !email.contains(where: \.isWhitespace) else { return false }
    let parts = email.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty else { return false }
    let domain = parts[1]
    return domain.contains(".") && !domain.hasPrefix(".") && !domain.hasSuffix(".") && !domain.contains("..")
  }
}
