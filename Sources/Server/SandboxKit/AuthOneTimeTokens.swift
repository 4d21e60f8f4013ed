import Crypto
import Foundation
internal import SQLKit

/// An emailed one-time token: a six-digit code, and the hash of the address and code that the
/// email's link carries. Stored as the hash only; used once; valid for an hour.
struct OneTimeToken: Decodable {
  /// What the token was sent for.
  enum Kind: String {
    case recovery
    case magicLink = "magiclink"

    /// The kind a /verify `type` uses: `recovery`, or `magiclink` and `email` (a sign-in code).
    /// Nil for the types the sandbox never sends (it confirms addresses at sign-up).
    init?(verifyType: String) {
      switch verifyType {
      case "recovery": self = .recovery
      case "magiclink", "email": self = .magicLink
      default: return nil
      }
    }

    /// The `type` of the email's link.
    var linkType: String { rawValue }

    /// GoTrue's default subjects.
    var subject: String {
      switch self {
      case .recovery: "Reset Your Password"
      case .magicLink: "Your Magic Link"
      }
    }

    func body(link: String, code: String) -> String {
      switch self {
      case .recovery: "Follow this link to reset the password for your user: \(link)\nOr enter the code: \(code)"
      case .magicLink: "Follow this link to sign in: \(link)\nOr enter the code: \(code)"
      }
    }
  }

  /// GoTrue marks a link token of a PKCE flow with this prefix.
  static let pkcePrefix = "pkce_"
  /// Seconds a token stays valid (GoTrue's `MAILER_OTP_EXP` on a Supabase project).
  static let lifetime = 3600

  var userID: String
  var challenge: PKCEChallenge?

  /// The hash a link carries for `code` sent to `email` (hex SHA-256 of both).
  static func hash(email: String, code: String) -> String {
    SHA256.hash(data: Data((email + code).utf8)).map { String(format: "%02x", $0) }.joined()
  }

  /// Six random digits.
  static func newCode() -> String {
    String(format: "%06d", Int.random(in: 0..<1_000_000))
  }

  /// Stores a token of `kind` for the user, replacing their last one of that kind; returns its hash.
  static func store(
    _ db: any SQLDatabase, userID: String, email: String, code: String, kind: Kind, challenge: PKCEChallenge?
  ) async throws -> String {
    let hash = hash(email: email, code: code)
    try await db.execute("DELETE FROM auth_one_time_tokens WHERE user_id = ? AND kind = ?", [userID, kind.rawValue])
    try await db.execute(
      """
      INSERT INTO auth_one_time_tokens (token_hash, user_id, kind, code_challenge, code_challenge_method, created_at)
      VALUES (?, ?, ?, ?, ?, ?)
      """,
      [hash, userID, kind.rawValue, challenge?.challenge, challenge?.method.rawValue, Timestamps.unixNow()])
    return hash
  }

  /// Uses up the unexpired token of `kind` whose hash is `hash` (a link's token, with or
  /// without the PKCE prefix); nil when there is none.
  static func take(_ db: any SQLDatabase, hash: String, kind: Kind) async throws -> OneTimeToken? {
    struct Row: Decodable {
      var userId: String
      var codeChallenge: String?
      var codeChallengeMethod: String?
      var createdAt: Int
    }
    let bare = hash.hasPrefix(pkcePrefix) ? String(hash.dropFirst(pkcePrefix.count)) : hash
    guard
      let row = try await db.fetchOne(
        Row.self,
        """
        DELETE FROM auth_one_time_tokens WHERE token_hash = ? AND kind = ?
        RETURNING user_id, code_challenge, code_challenge_method, created_at
        """, [bare, kind.rawValue]),
      Timestamps.unixNow() - row.createdAt < lifetime
    else { return nil }
    let challenge = row.codeChallenge.flatMap { challenge in
      row.codeChallengeMethod.flatMap(PKCEChallenge.Method.init(rawValue:)).map {
        PKCEChallenge(challenge: challenge, method: $0)
      }
    }
    return OneTimeToken(userID: row.userId, challenge: challenge)
  }
}

/// A PKCE code challenge (RFC 7636) a client sent with a recovery or sign-in request.
struct PKCEChallenge: Decodable, Equatable {
  enum Method: String, Decodable {
    case s256
    case plain
  }

  var challenge: String
  var method: Method

  init(challenge: String, method: Method) {
    self.challenge = challenge
    self.method = method
  }

  /// The request's challenge, if it sent one; GoTrue's 400 when only one of the two is there.
  init?<M: RawRepresentable<String>>(_ challenge: String?, method: M?) throws {
    switch (challenge.flatMap { $0.isEmpty ? nil : $0 }, method?.rawValue.lowercased()) {
    case (nil, nil): return nil
    case (let challenge?, let method?):
      guard let method = Method(rawValue: method) else {
        throw GoTrueError.validationFailed("code challenge method not supported")
      }
      self.init(challenge: challenge, method: method)
    default:
      throw GoTrueError.validationFailed("PKCE flow requires code_challenge_method and code_challenge")
    }
  }

  /// Whether `verifier` is the one this challenge was made from.
  func matches(_ verifier: String) -> Bool {
    switch method {
    case .plain:
      return OperatorGuardMiddleware.equal(verifier, challenge)
    case .s256:
      let digest = Array(SHA256.hash(data: Data(verifier.utf8)))
      let encoded = Base64URL.encode(digest)
      return OperatorGuardMiddleware.equal(encoded, challenge)
    }
  }
}

/// PKCE flow states: the code a followed link hands the app, for `grant_type=pkce`.
enum FlowStates {
  /// Seconds a code may wait for its exchange (GoTrue's flow state expiry).
  static let lifetime = 300

  /// A new code for `userID`, to be exchanged with the verifier of `challenge`.
  static func issue(_ db: any SQLDatabase, userID: String, challenge: PKCEChallenge) async throws -> String {
    let code = UUID().uuidString.lowercased()
    try await db.execute(
      """
      INSERT INTO auth_flow_states (auth_code, user_id, code_challenge, code_challenge_method, created_at)
      VALUES (?, ?, ?, ?, ?)
      """,
      [code, userID, challenge.challenge, challenge.method.rawValue, Timestamps.unixNow()])
    return code
  }

  /// Uses up `code` when `verifier` matches it, and returns its user; GoTrue's errors otherwise.
  static func exchange(_ db: any SQLDatabase, code: String, verifier: String) async throws -> UserRecord {
    struct Row: Decodable {
      var userId: String
      var codeChallenge: String
      var codeChallengeMethod: String
      var createdAt: Int
    }
    guard
      let row = try await db.fetchOne(
        Row.self,
        "SELECT user_id, code_challenge, code_challenge_method, created_at FROM auth_flow_states WHERE auth_code = ?",
        [code]),
      let method = PKCEChallenge.Method(rawValue: row.codeChallengeMethod),
      let user = try await UserRecord.fetch(db, id: row.userId)
    else { throw GoTrueError.flowStateNotFound }
    guard Timestamps.unixNow() - row.createdAt < lifetime else { throw GoTrueError.flowStateExpired }
    guard PKCEChallenge(challenge: row.codeChallenge, method: method).matches(verifier) else {
      throw GoTrueError.badCodeVerifier
    }
    try await db.execute("DELETE FROM auth_flow_states WHERE auth_code = ?", [code])
    return user
  }
}
