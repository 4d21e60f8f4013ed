import AuthAPI
import Crypto
import Foundation
import GRDB
import Hummingbird

/// The GoTrue-compatible auth service under /auth/v1.
struct AuthHandlers: AuthAPI.APIProtocol {
  let state: SandboxState

  static let invalidJWT = SandboxAPIError.goTrue(.unauthorized, "invalid JWT")
  static let invalidCredentials = SandboxAPIError.oauth("invalid_grant", "Invalid login credentials")
  static let invalidRefreshToken = SandboxAPIError.oauth("invalid_grant", "Invalid Refresh Token")

  func signup(_ input: AuthAPI.Operations.signup.Input) async throws -> AuthAPI.Operations.signup.Output {
    guard case .json(let credentials) = input.body else { throw SandboxAPIError.internalError }
    let email = EmailAddress.normalize(credentials.email)
    guard EmailAddress.isValid(email) else {
      throw SandboxAPIError.goTrue(.unprocessableContent, "Unable to validate email address: invalid format")
    }
    guard credentials.password.count >= Passwords.minimumLength else {
      throw SandboxAPIError.goTrue(
        .unprocessableContent, "Password should be at least \(Passwords.minimumLength) characters")
    }
    let hash = await Passwords.hash(credentials.password)
    let state = self.state
    let session = try await state.pool.write { db in
      guard try UserRecord.fetch(db, email: email) == nil else {
        throw SandboxAPIError.goTrue(.unprocessableContent, "User already registered")
      }
      let user = UserRecord(
        id: UUID().uuidString.lowercased(), email: email, passwordHash: hash, createdAt: Timestamps.now())
      try user.insert(db)
      try NewUserHooks.run(db, userID: user.id, email: user.email)
      return try Sessions.issue(db, for: user, state: state)
    }
    return .ok(.init(body: .json(session)))
  }

  func token(_ input: AuthAPI.Operations.token.Input) async throws -> AuthAPI.Operations.token.Output {
    guard case .json(let request) = input.body else { throw SandboxAPIError.internalError }
    let state = self.state
    switch input.query.grant_type {
    case .password:
      guard let email = request.email.map(EmailAddress.normalize), let password = request.password,
        let user = try await state.pool.read({ try UserRecord.fetch($0, email: email) }),
        await Passwords.verify(password, hash: user.passwordHash)
      else { throw Self.invalidCredentials }
      let session = try await state.pool.write { db in try Sessions.issue(db, for: user, state: state) }
      return .ok(.init(body: .json(session)))

    case .refresh_token:
      guard let token = request.refresh_token, !token.isEmpty else { throw Self.invalidRefreshToken }
      let session = try await state.pool.write { db in
        guard
          let userID = try String.fetchOne(
            db, sql: "SELECT user_id FROM refresh_tokens WHERE token = ? AND revoked = 0", arguments: [token]),
          let user = try UserRecord.fetch(db, id: userID)
        else { throw Self.invalidRefreshToken }
        try db.execute(sql: "UPDATE refresh_tokens SET revoked = 1 WHERE token = ?", arguments: [token])
        return try Sessions.issue(db, for: user, state: state)
      }
      return .ok(.init(body: .json(session)))
    }
  }

  func getUser(_ input: AuthAPI.Operations.getUser.Input) async throws -> AuthAPI.Operations.getUser.Output {
    let user = try await state.requireBearerUser(orThrow: Self.invalidJWT)
    return .ok(.init(body: .json(.init(id: user.id, email: user.email, created_at: user.createdAt))))
  }

  func logout(_ input: AuthAPI.Operations.logout.Input) async throws -> AuthAPI.Operations.logout.Output {
    let user = try await state.requireBearerUser(orThrow: Self.invalidJWT)
    try await state.pool.write { db in
      try db.execute(sql: "UPDATE refresh_tokens SET revoked = 1 WHERE user_id = ?", arguments: [user.id])
    }
    return .noContent(.init())
  }

  /// Error bodies for requests the generated server could not decode.
  @Sendable static func requestError(operationID: String, request: HTTPRequest, status: HTTPResponse.Status)
    -> SandboxAPIError
  {
    if operationID == "token" {
      let grantType = QueryItems.value(of: "grant_type", in: request)
      if grantType.flatMap(AuthAPI.Operations.token.Input.Query.grant_typePayload.init(rawValue:)) == nil {
        return .oauth("unsupported_grant_type", "grant_type must be password or refresh_token")
      }
      return .oauth("invalid_request", "Could not parse request body as JSON")
    }
    if status == .badRequest {
      return .goTrue(.badRequest, "Could not parse request body as JSON")
    }
    return .goTrue(status, "Invalid request")
  }
}

/// Access and refresh tokens.
enum Sessions {
  /// Signs an access token for `user` and stores a new refresh token.
  static func issue(_ db: Database, for user: UserRecord, state: SandboxState) throws
    -> AuthAPI.Components.Schemas.Session
  {
    let now = Timestamps.unixNow()
    let ttl = state.options.accessTokenTTL
    let claims = AccessTokenClaims(userID: user.id, email: user.email, issuedAt: now, ttl: ttl)
    let accessToken = try state.signer(db).sign(claims)
    let refreshToken = newRefreshToken()
    try db.execute(
      sql: "INSERT INTO refresh_tokens (token, user_id, revoked, created_at) VALUES (?, ?, 0, ?)",
      arguments: [refreshToken, user.id, Timestamps.now()])
    return .init(
      access_token: accessToken, token_type: "bearer", expires_in: ttl, expires_at: Int64(now + ttl),
      refresh_token: refreshToken,
      user: .init(id: user.id, email: user.email, created_at: user.createdAt))
  }

  /// 32 random bytes, base64url.
  static func newRefreshToken() -> String {
    SymmetricKey(size: .bits256).withUnsafeBytes { Base64URL.encode(Data($0)) }
  }
}

enum QueryItems {
  /// The first value of the query parameter `name` of `request`, percent-decoded.
  static func value(of name: String, in request: HTTPRequest) -> String? {
    guard let path = request.path, let components = URLComponents(string: path) else { return nil }
    return components.queryItems?.first { $0.name == name }?.value
  }
}
