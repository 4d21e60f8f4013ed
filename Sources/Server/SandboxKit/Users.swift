import Foundation
import HummingbirdBcrypt
import OpenAPIRuntime
package import SQLKit

/// A row of `users` (decoded by its columns' names, ``SQLRow/decode(_:)``).
package struct UserRecord: Sendable, Equatable, Decodable {
  package var id: String
  package var email: String
  var passwordHash: String
  package var createdAt: String
  /// `user_metadata`, a JSON object.
  package var userMetadata: String = "{}"
  /// Nil until the row is first changed (the user's `updated_at` is then `created_at`).
  var updatedAt: String?
  /// Nil until the user first signs in.
  var lastSignInAt: String?

  init(id: String, email: String, passwordHash: String, createdAt: String, userMetadata: String = "{}") {
    self.id = id
    self.email = email
    self.passwordHash = passwordHash
    self.createdAt = createdAt
    self.userMetadata = userMetadata
  }

  package static func fetch(_ db: any SQLDatabase, id: String) async throws -> UserRecord? {
    try await db.fetchOne(UserRecord.self, "SELECT * FROM users WHERE id = ?", [id])
  }

  package static func fetch(_ db: any SQLDatabase, email: String) async throws -> UserRecord? {
    try await db.fetchOne(UserRecord.self, "SELECT * FROM users WHERE email = ?", [email])
  }

  func insert(_ db: any SQLDatabase) async throws {
    try await db.execute(
      "INSERT INTO users (id, email, password_hash, created_at, user_metadata) VALUES (?, ?, ?, ?, ?)",
      [id, email, passwordHash, createdAt, userMetadata])
  }

  /// The string values of `user_metadata` (e.g. `role`).
  package var metadataStrings: [String: String] { UserMetadata.strings(metadata) }

  /// `user_metadata` as a JSON object (an empty one if the stored text is not an object).
  var metadata: OpenAPIObjectContainer {
    (try? JSONDecoder().decode(OpenAPIObjectContainer.self, from: Data(userMetadata.utf8))) ?? .init()
  }
}

/// The auth tables' later columns: GoTrue's user fields and sessions. (`users` and
/// `refresh_tokens` themselves are in the "v1-auth" migration.)
enum AuthSchema {
  static func register(in migrations: inout SchemaMigrations) {
    migrations.add(
      "v2-auth-gotrue",
      script: """
        ALTER TABLE users ADD COLUMN user_metadata TEXT NOT NULL DEFAULT '{}';
        ALTER TABLE users ADD COLUMN updated_at TEXT;
        ALTER TABLE users ADD COLUMN last_sign_in_at TEXT;
        -- One row per sign-in; its refresh tokens (rotated) and access tokens (session_id) die with it.
        CREATE TABLE auth_sessions (
          id TEXT PRIMARY KEY NOT NULL,
          user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          created_at TEXT NOT NULL,
          signed_in_at INTEGER NOT NULL
        );
        CREATE INDEX auth_sessions_user ON auth_sessions(user_id);
        -- Tokens from before sessions existed cannot be refreshed any more.
        DELETE FROM refresh_tokens;
        ALTER TABLE refresh_tokens ADD COLUMN session_id TEXT REFERENCES auth_sessions(id) ON DELETE CASCADE;
        CREATE INDEX refresh_tokens_session ON refresh_tokens(session_id);
        """)
    migrations.add(
      "v3-auth-refresh-reuse",
      script: """
        -- GoTrue's reuse rules: the token a refresh used up (its parent), and when it was used up.
        ALTER TABLE refresh_tokens ADD COLUMN parent TEXT;
        ALTER TABLE refresh_tokens ADD COLUMN revoked_at INTEGER;
        """)
    migrations.add(
      "v4-auth-email-flows",
      script: """
        -- The outbox (every email the sandbox would send). The workspace feature's first
        -- migration makes the same table, IF NOT EXISTS, on databases where that came first.
        CREATE TABLE IF NOT EXISTS sandbox_outbox (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          to_email TEXT NOT NULL,
          subject TEXT NOT NULL,
          body TEXT NOT NULL,
          join_url TEXT NOT NULL,
          workspace_name TEXT,
          sent_at TEXT NOT NULL
        );
        -- Emailed one-time tokens (recovery, sign-in), by the hash of address and code.
        CREATE TABLE auth_one_time_tokens (
          token_hash TEXT PRIMARY KEY NOT NULL,
          user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          kind TEXT NOT NULL,
          code_challenge TEXT,
          code_challenge_method TEXT,
          created_at INTEGER NOT NULL
        );
        CREATE INDEX auth_one_time_tokens_user ON auth_one_time_tokens(user_id, kind);
        -- PKCE codes handed out by followed links, until their exchange.
        CREATE TABLE auth_flow_states (
          auth_code TEXT PRIMARY KEY NOT NULL,
          user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          code_challenge TEXT NOT NULL,
          code_challenge_method TEXT NOT NULL,
          created_at INTEGER NOT NULL
        );
        """)
  }
}

/// Bcrypt hashing, off the cooperative thread pool (it is deliberately slow).
enum Passwords {
  /// bcrypt's lowest cost, where GoTrue uses 10: the sandbox's data is not real, and each
  /// sign-in at 10 took about 150 ms of CPU in a debug build (the end-to-end and QA suites sign
  /// in hundreds of times).
  static let cost: UInt8 = 4
  /// The fewest characters (Unicode scalars, as GoTrue counts runes) of a new password.
  static let minimumLength = 6
  /// The most bytes (UTF-8) of a password: bcrypt reads no further, so GoTrue refuses longer ones.
  static let maximumBytes = 72

  /// Whether bcrypt reads all of `password`: at most 72 bytes and no NUL (where bcrypt stops).
  static func isStorable(_ password: String) -> Bool {
    password.utf8.count <= maximumBytes && !password.utf8.contains(0)
  }

  /// Refuses a new password (sign-up, or a change) as GoTrue does: over 72 bytes is 400
  /// `validation_failed`, under 6 characters 422 `weak_password`. A NUL, which GoTrue's bcrypt
  /// would read but the sandbox's stops at, is 400 `validation_failed` too.
  static func checkNew(_ password: String) throws(GoTrueError) {
    guard password.utf8.count <= maximumBytes else { throw GoTrueError.passwordTooLong }
    guard !password.utf8.contains(0) else { throw GoTrueError.passwordHasNUL }
    guard password.unicodeScalars.count >= minimumLength else { throw GoTrueError.weakPassword }
  }

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

package enum EmailAddress {
  /// Trimmed and lowercased.
  package static func normalize(_ email: String) -> String {
    email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
  }

  /// A plausible address: one "@", a non-empty local part, a dotted domain, no whitespace and
  /// no control character (a NUL, which no database of the sandbox stores as text).
  package static func isValid(_ email: String) -> Bool {
    guard email.count <= 254, !email.contains(where: \.isWhitespace), isStorable(email) else { return false }
    let parts = email.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty else { return false }
    let domain = parts[1]
    return domain.contains(".") && !domain.hasPrefix(".") && !domain.hasSuffix(".") && !domain.contains("..")
  }

  /// Whether `email` has no control character, so that it can be looked up at all.
  package static func isStorable(_ email: String) -> Bool {
    !email.unicodeScalars.contains { $0.properties.generalCategory == .control }
  }
}
