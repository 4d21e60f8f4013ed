import GRDB

/// The user an access token was issued to.
struct AuthenticatedUser: Sendable, Equatable {
  var id: String
  var email: String
  var createdAt: String
}

extension SandboxState {
  /// The user whose valid, unexpired access token is the current request's bearer token, or nil
  /// when the header is missing, the token is invalid or expired, or the user no longer exists.
  /// Every endpoint that needs a signed-in user goes through here.
  func bearerUser() async throws -> AuthenticatedUser? {
    guard let token = CurrentRequest.bearerToken else { return nil }
    return try await pool.read { db in
      guard let claims = try self.signer(db).verify(token, now: Timestamps.unixNow()),
        let user = try UserRecord.fetch(db, id: claims.sub)
      else { return nil }
      return AuthenticatedUser(id: user.id, email: user.email, createdAt: user.createdAt)
    }
  }

  /// ``bearerUser()``, throwing `error` (the API's 401 body) when there is none.
  func requireBearerUser(orThrow error: SandboxAPIError) async throws -> AuthenticatedUser {
    guard let user = try await bearerUser() else { throw error }
    return user
  }
}
