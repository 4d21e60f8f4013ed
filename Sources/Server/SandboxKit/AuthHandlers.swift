import AuthAPI
import Crypto
import DeckSupport
import Foundation
import Hummingbird
import OpenAPIRuntime
internal import SQLKit

/// The GoTrue-compatible auth service under /auth/v1 (see the AuthAPI contract): GoTrue's
/// response shapes and error codes, so that the official Supabase clients accept it.
struct AuthHandlers: AuthAPI.APIProtocol {
  let state: SandboxState

  /// The middleware of the auth operations: the apikey check and GoTrue's error bodies.
  static func middlewares(state: SandboxState) -> [any ServerMiddleware] {
    [GoTrueMiddleware(state: state)]
  }

  func signup(_ input: AuthAPI.Operations.signup.Input) async throws -> AuthAPI.Operations.signup.Output {
    guard case .json(let request) = input.body else { throw GoTrueError.badJSON }
    guard !request.password.isEmpty else {
      throw GoTrueError.validationFailed("Signup requires a valid password")
    }
    try Passwords.checkNew(request.password)
    let email = EmailAddress.normalize(request.email)
    guard !email.isEmpty else { throw GoTrueError.validationFailed("An email address is required") }
    guard EmailAddress.isValid(email) else {
      throw GoTrueError.validationFailed("Unable to validate email address: invalid format")
    }
    let metadata = try UserMetadata.encode(request.data?.additionalProperties ?? .init())
    let hash = await Passwords.hash(request.password)
    let state = self.state
    let session = try await state.database.write { db in
      guard try await UserRecord.fetch(db, email: email) == nil else { throw GoTrueError.userAlreadyExists }
      let user = UserRecord(
        id: UUID().uuidString.lowercased(), email: email, passwordHash: hash, createdAt: Timestamps.now(),
        userMetadata: metadata)
      try await user.insert(db)
      try await NewUserHooks(features: state.options.features).run(
        db, user: NewUser(id: user.id, email: user.email, metadata: UserMetadata.strings(user.metadata)))
      return try await Sessions.start(db, for: user, state: state)
    }.signed(by: state.signer)
    return .ok(.init(body: .json(session)))
  }

  func token(_ input: AuthAPI.Operations.token.Input) async throws -> AuthAPI.Operations.token.Output {
    guard case .json(let request) = input.body else { throw GoTrueError.badJSON }
    let state = self.state
    switch input.query.grant_type {
    case .password:
      guard let email = request.email.map(EmailAddress.normalize), !email.isEmpty else {
        throw GoTrueError.validationFailed("missing email or phone")
      }
      // No account has an email or a password the sandbox refuses at sign-up (a NUL, a password
      // bcrypt would cut short): such a pair is wrong, whatever the stored hash says.
      let password = request.password ?? ""
      guard EmailAddress.isStorable(email), Passwords.isStorable(password) else {
        throw GoTrueError.invalidCredentials
      }
      let address = CurrentRequest.clientAddress
      if let seconds = state.signInThrottle.retryAfter(email: email, address: address) {
        throw GoTrueError.overRequestRateLimit(retryAfter: seconds)
      }
      guard let user = try await state.database.read({ try await UserRecord.fetch($0, email: email) }) else {
        throw GoTrueError.invalidCredentials
      }
      guard await Passwords.verify(password, hash: user.passwordHash) else {
        state.signInThrottle.recordFailure(email: email, address: address)
        throw GoTrueError.invalidCredentials
      }
      let session = try await state.database.write { db in try await Sessions.start(db, for: user, state: state) }
        .signed(by: state.signer)
      return .ok(.init(body: .json(session)))

    case .refresh_token:
      guard let token = request.refresh_token, !token.isEmpty else {
        throw GoTrueError.validationFailed("refresh_token required")
      }
      // A refused reuse still commits: it ends the token's session (GoTrue revokes the family).
      let outcome = try await state.database.write { db in try await Sessions.refresh(db, token: token, state: state) }
      guard let pending = outcome else { throw GoTrueError.refreshTokenAlreadyUsed }
      return .ok(.init(body: .json(try await pending.signed(by: state.signer))))

    case .pkce:
      guard let code = request.auth_code, !code.isEmpty, let verifier = request.code_verifier, !verifier.isEmpty else {
        throw GoTrueError.validationFailed("invalid request: both auth code and code verifier should be non-empty")
      }
      let session = try await state.database.write { db in
        let user = try await FlowStates.exchange(db, code: code, verifier: verifier)
        return try await Sessions.start(db, for: user, state: state)
      }.signed(by: state.signer)
      return .ok(.init(body: .json(session)))
    }
  }

  func getUser(_ input: AuthAPI.Operations.getUser.Input) async throws -> AuthAPI.Operations.getUser.Output {
    let user = try await signedInUser()
    return .ok(.init(body: .json(user.api)))
  }

  func updateUser(_ input: AuthAPI.Operations.updateUser.Input) async throws
    -> AuthAPI.Operations.updateUser.Output
  {
    let current = try await signedInUser()
    guard case .json(let update) = input.body else { throw GoTrueError.badJSON }
    if let email = update.email, EmailAddress.normalize(email) != current.email {
      throw GoTrueError.validationFailed(
        "The sandbox does not change email addresses; sign up the new address instead.",
        status: .unprocessableContent)
    }
    if update.phone != nil {
      throw GoTrueError.validationFailed(
        "The sandbox has no phone sign-in; a user cannot have a phone number.", status: .unprocessableContent)
    }
    var newHash: String?
    if let password = update.password {
      try Passwords.checkNew(password)
      guard !(await Passwords.verify(password, hash: current.passwordHash)) else { throw GoTrueError.samePassword }
      newHash = await Passwords.hash(password)
    }
    let passwordHash = newHash
    let changes = update.data?.additionalProperties
    let user = try await state.database.write { db in
      // Re-read inside the write: another request may have changed the metadata meanwhile.
      guard var user = try await UserRecord.fetch(db, id: current.id) else { throw GoTrueError.userNotFound }
      if let changes { user.userMetadata = try UserMetadata.encode(UserMetadata.merge(changes, into: user.metadata)) }
      if let passwordHash { user.passwordHash = passwordHash }
      user.updatedAt = Timestamps.now()
      try await db.execute(
        "UPDATE users SET user_metadata = ?, password_hash = ?, updated_at = ? WHERE id = ?",
        [user.userMetadata, user.passwordHash, user.updatedAt, user.id])
      return user
    }
    return .ok(.init(body: .json(user.api)))
  }

  func logout(_ input: AuthAPI.Operations.logout.Input) async throws -> AuthAPI.Operations.logout.Output {
    let user = try await state.authenticate().get()
    let scope = input.query.scope ?? .global
    try await state.database.write { db in
      switch scope {
      case .global:
        try await db.execute("DELETE FROM auth_sessions WHERE user_id = ?", [user.id])
      case .local:
        try await db.execute("DELETE FROM auth_sessions WHERE id = ?", [user.sessionID])
      case .others:
        try await db.execute("DELETE FROM auth_sessions WHERE user_id = ? AND id <> ?", [user.id, user.sessionID])
      }
    }
    return .noContent(.init())
  }

  /// The bearer token's user, or GoTrue's error.
  private func signedInUser() async throws -> UserRecord {
    let state = self.state
    let authenticated = try await state.authenticate().get()
    guard let user = try await state.database.read({ try await UserRecord.fetch($0, id: authenticated.id) }) else {
      throw GoTrueError.userNotFound
    }
    return user
  }
}

/// Sessions (one per sign-in), their rotating refresh tokens and their access tokens.
package enum Sessions {
  /// A session's next tokens, recorded in the database but not signed yet: signing is async
  /// (``JWTSigner``), so it happens after the transaction.
  struct Pending: Sendable {
    var claims: AccessTokenClaims
    var refreshToken: String
    var user: UserRecord
    var ttl: Int

    func signed(by signer: JWTSigner) async throws -> AuthAPI.Components.Schemas.Session {
      .init(
        access_token: try await signer.sign(claims), token_type: "bearer", expires_in: ttl,
        expires_at: Int64(claims.exp), refresh_token: refreshToken, user: user.api)
    }
  }

  /// Starts a session for `user` (a sign-up or a password sign-in): records the sign-in and
  /// returns its first tokens.
  static func start(_ db: any SQLDatabase, for user: UserRecord, state: SandboxState) async throws -> Pending {
    let sessionID = UUID().uuidString.lowercased()
    let now = Timestamps.now()
    try await db.execute(
      "INSERT INTO auth_sessions (id, user_id, created_at, signed_in_at) VALUES (?, ?, ?, ?)",
      [sessionID, user.id, now, Timestamps.unixNow()])
    try await db.execute("UPDATE users SET last_sign_in_at = ? WHERE id = ?", [now, user.id])
    var user = user
    user.lastSignInAt = now
    return try await issue(db, for: user, sessionID: sessionID, state: state)
  }

  /// Uses up `token` and returns the next tokens of its session, as GoTrue rotates them: a
  /// token used once more after it was rotated gets the session's active refresh token back
  /// when that token is its child (a client that lost the answer, or two tabs refreshing at
  /// once), and a new one within ``SandboxOptions/refreshTokenReuseInterval`` seconds of its
  /// rotation. Any other reuse is nil (`refresh_token_already_used`), and it ends the session.
  static func refresh(_ db: any SQLDatabase, token: String, state: SandboxState) async throws -> Pending? {
    /// A row of `refresh_tokens`.
    struct Grant: Decodable {
      var userId: String
      var sessionId: String?
      var revokedAt: Int?
    }
    /// The session's refresh token that is not used up yet.
    struct Active: Decodable {
      var token: String
      var parent: String?
    }
    guard
      let grant = try await db.fetchOne(
        Grant.self, "SELECT user_id, session_id, revoked_at FROM refresh_tokens WHERE token = ?", [token]),
      let sessionID = grant.sessionId,
      let user = try await UserRecord.fetch(db, id: grant.userId)
    else { throw GoTrueError.refreshTokenNotFound }
    let now = Timestamps.unixNow()
    // Used once: of two refreshes racing with one token (on any instance), one marks it.
    let marked = try await db.fetchOne(
      "UPDATE refresh_tokens SET revoked = 1, revoked_at = ? WHERE token = ? AND revoked = 0 RETURNING token",
      [now, token])
    if marked != nil { return try await issue(db, for: user, sessionID: sessionID, parent: token, state: state) }
    let active = try await db.fetchOne(
      Active.self,
      "SELECT token, parent FROM refresh_tokens WHERE session_id = ? AND revoked = 0 ORDER BY created_at DESC LIMIT 1",
      [sessionID])
    if let active, active.parent == token {
      return try await issue(db, for: user, sessionID: sessionID, reusing: active.token, state: state)
    }
    if let revokedAt = grant.revokedAt, now - revokedAt < state.options.refreshTokenReuseInterval {
      return try await issue(db, for: user, sessionID: sessionID, parent: token, state: state)
    }
    try await db.execute(
      "UPDATE refresh_tokens SET revoked = 1, revoked_at = COALESCE(revoked_at, ?) WHERE session_id = ?",
      [now, sessionID])
    return nil
  }

  /// Whether the session `id` of user `userID` is still live.
  static func exists(_ db: any SQLDatabase, id: String, userID: String) async throws -> Bool {
    try await db.fetchOne("SELECT 1 FROM auth_sessions WHERE id = ? AND user_id = ?", [id, userID]) != nil
  }

  /// The claims of an access token of `sessionID` for `user`, and a refresh token: `reusing`
  /// (the session's active one) or a new stored one, the child of `parent`.
  private static func issue(
    _ db: any SQLDatabase, for user: UserRecord, sessionID: String, parent: String? = nil, reusing: String? = nil,
    state: SandboxState
  ) async throws
    -> Pending
  {
    let now = Timestamps.unixNow()
    let ttl = state.options.accessTokenTTL
    let signedInAt = try await db.fetchValue(
      Int.self, "SELECT signed_in_at FROM auth_sessions WHERE id = ?", [sessionID])
    let claims = AccessTokenClaims(
      userID: user.id, email: user.email, sessionID: sessionID, userMetadata: user.metadata, issuedAt: now, ttl: ttl,
      signedInAt: signedInAt)
    if let reusing { return Pending(claims: claims, refreshToken: reusing, user: user, ttl: ttl) }
    let refreshToken = newRefreshToken()
    try await db.execute(
      "INSERT INTO refresh_tokens (token, user_id, revoked, created_at, session_id, parent) VALUES (?, ?, 0, ?, ?, ?)",
      [refreshToken, user.id, Timestamps.now(), sessionID, parent])
    return Pending(claims: claims, refreshToken: refreshToken, user: user, ttl: ttl)
  }

  /// 32 random bytes, base64url: unguessable (refresh tokens, invite tokens).
  package static func newRefreshToken() -> String {
    SymmetricKey(size: .bits256).withUnsafeBytes { Base64URL.encode($0) }
  }
}

/// `user_metadata`: a JSON object stored as text.
enum UserMetadata {
  /// The metadata's string values (what the features' new-user hooks read, e.g. `role`).
  static func strings(_ metadata: OpenAPIObjectContainer) -> [String: String] {
    metadata.value.compactMapValues { $0 as? String }
  }

  static func encode(_ metadata: OpenAPIObjectContainer) throws -> String {
    String(decoding: try DeckJSON.compactEncoder.encode(metadata), as: UTF8.self)
  }

  /// GoTrue's merge: each key of `changes` is set, and a key whose value is null is removed.
  static func merge(_ changes: OpenAPIObjectContainer, into metadata: OpenAPIObjectContainer) throws
    -> OpenAPIObjectContainer
  {
    var merged = metadata.value
    for (key, value) in changes.value {
      if let value { merged[key] = value } else { merged[key] = nil }
    }
    return try OpenAPIObjectContainer(unvalidatedValue: merged)
  }
}

extension UserRecord {
  /// The namespace of the ids of users' email identities.
  static let identityNamespace = UUID(uuidString: "3D6E1F0A-8B2C-4E57-9A41-6C0F2B7D9E13")!

  /// GoTrue's user object. The sandbox confirms email addresses at sign-up, so the user is
  /// confirmed since its creation.
  var api: AuthAPI.Components.Schemas.User {
    let identityData =
      (try? OpenAPIObjectContainer(unvalidatedValue: [
        "email": email, "email_verified": true, "phone_verified": false, "sub": id,
      ])) ?? .init()
    let identity = AuthAPI.Components.Schemas.Identity(
      identity_id: NameUUID.make(namespace: Self.identityNamespace, name: id).uuidString.lowercased(),
      id: id, user_id: id, identity_data: .init(additionalProperties: identityData), provider: "email",
      email: email, last_sign_in_at: lastSignInAt, created_at: createdAt, updated_at: updatedAt ?? createdAt)
    return .init(
      id: id, aud: "authenticated", role: "authenticated", email: email, email_confirmed_at: createdAt, phone: "",
      confirmed_at: createdAt, last_sign_in_at: lastSignInAt,
      app_metadata: .init(provider: "email", providers: ["email"]),
      user_metadata: .init(additionalProperties: metadata), identities: [identity], created_at: createdAt,
      updated_at: updatedAt ?? createdAt, is_anonymous: false)
  }
}

package enum QueryItems {
  /// The first value of the query parameter `name` of `request`, percent-decoded.
  package static func value(of name: String, in request: HTTPRequest) -> String? {
    guard let path = request.path, let components = URLComponents(string: path) else { return nil }
    return components.queryItems?.first { $0.name == name }?.value
  }
}
