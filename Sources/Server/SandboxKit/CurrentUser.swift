/// The user an access token was issued to, and the session it belongs to.
package struct AuthenticatedUser: Sendable, Equatable {
  package var id: String
  package var email: String
  package var createdAt: String
  package var sessionID: String
  /// The string values of the user's `user_metadata` (e.g. `role`).
  package var metadata: [String: String] = [:]
}

extension SandboxState {
  /// The user whose access token is the current request's bearer token, or GoTrue's reason
  /// why there is none: no token (401), a token that is invalid or expired, or whose user or
  /// session is gone (403). A session ends at sign-out and at a sandbox reset.
  func authenticate() async throws -> Result<AuthenticatedUser, GoTrueError> {
    guard let token = CurrentRequest.bearerToken else { return .failure(.noAuthorization) }
    let claims: AccessTokenClaims
    switch await signer.check(token, now: Timestamps.unixNow()) {
    case .failure(let failure): return .failure(.badJWT(failure))
    case .success(let valid): claims = valid
    }
    return try await database.read { db in
      guard let user = try await UserRecord.fetch(db, id: claims.sub) else { return .failure(.userNotFound) }
      guard try await Sessions.exists(db, id: claims.session_id, userID: user.id) else {
        return .failure(.sessionNotFound)
      }
      return .success(
        AuthenticatedUser(
          id: user.id, email: user.email, createdAt: user.createdAt, sessionID: claims.session_id,
          metadata: UserMetadata.strings(user.metadata)))
    }
  }

  /// The user whose valid, unexpired access token of a live session is the current request's
  /// bearer token, or nil when the header is missing, the token is invalid or expired, or its
  /// user or session no longer exists. Every endpoint that needs a signed-in user goes through here.
  package func bearerUser() async throws -> AuthenticatedUser? {
    guard case .success(let user) = try await authenticate() else { return nil }
    return user
  }

  /// ``bearerUser()``, throwing `error` (the API's 401 body) when there is none.
  package func requireBearerUser(orThrow error: SandboxAPIError) async throws -> AuthenticatedUser {
    guard let user = try await bearerUser() else { throw error }
    return user
  }
}
