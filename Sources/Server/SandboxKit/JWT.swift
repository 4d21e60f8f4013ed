import Crypto
import DeckSupport
import Foundation
import OpenAPIRuntime

/// The claims of a sandbox access token: GoTrue's (sub, email, phone, role, aud, iat, exp,
/// session_id, app_metadata, user_metadata, aal, amr, is_anonymous), and a jti.
struct AccessTokenClaims: Codable, Equatable, Sendable {
  var sub: String
  var email: String
  var phone: String
  var role: String
  var aud: String
  var iat: Int
  var exp: Int
  /// The session the token belongs to: it stops working when the session ends (sign-out, reset).
  var session_id: String
  var app_metadata: AppMetadata
  var user_metadata: OpenAPIObjectContainer
  var aal: String
  var amr: [AuthenticationMethodReference]
  var is_anonymous: Bool
  /// Unique per token (RFC 7519's JWT ID): a refresh in the same second as the sign-in still
  /// gives a new access token.
  var jti: String

  struct AppMetadata: Codable, Equatable, Sendable {
    var provider = "email"
    var providers = ["email"]
  }

  struct AuthenticationMethodReference: Codable, Equatable, Sendable {
    var method: String
    var timestamp: Int
  }

  init(
    userID: String, email: String, sessionID: String = UUID().uuidString.lowercased(),
    userMetadata: OpenAPIObjectContainer = .init(), issuedAt: Int, ttl: Int, signedInAt: Int? = nil
  ) {
    self.sub = userID
    self.email = email
    self.phone = ""
    self.role = "authenticated"
    self.aud = "authenticated"
    self.iat = issuedAt
    self.exp = issuedAt + ttl
    self.session_id = sessionID
    self.app_metadata = AppMetadata()
    self.user_metadata = userMetadata
    self.aal = "aal1"
    self.amr = [AuthenticationMethodReference(method: "password", timestamp: signedInAt ?? issuedAt)]
    self.is_anonymous = false
    self.jti = UUID().uuidString.lowercased()
  }
}

/// The claims of the sandbox's anon key (what a Supabase project's `anon` API key carries).
/// Fixed, so that a database's anon key is always the same string.
struct AnonKeyClaims: Codable, Equatable, Sendable {
  var iss = "deck-sandbox"
  var ref = "sandbox"
  var role = "anon"
  /// 2026-01-01 and 2100-01-01.
  var iat = 1_767_225_600
  var exp = 4_102_444_800
}

/// Why a token was not accepted.
enum JWTFailure: Error, Equatable {
  /// Not three base64url parts, not HS256, or not the claims expected.
  case malformed
  case badSignature
  case expired
  /// Valid and signed by the sandbox, but naming no user (the anon key).
  case missingSubject

  /// GoTrue's wording (after "invalid JWT: unable to parse or verify signature, ").
  var reason: String {
    switch self {
    case .malformed: "token is malformed"
    case .badSignature: "signature is invalid"
    case .expired: "token has invalid claims: token is expired"
    case .missingSubject: "token has no sub claim"
    }
  }
}

/// HS256 JSON Web Tokens (RFC 7519) signed with the sandbox's persisted secret: HMAC-SHA256
/// (swift-crypto) over the base64url header and claims. The header is always
/// `{"alg":"HS256","typ":"JWT"}` and the claims are written with sorted keys, so the same
/// claims always give the same token (the anon key is one string per secret).
struct JWTSigner: Sendable {
  private let key: SymmetricKey
  private static let header = Base64URL.encode(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))

  init(secret: some ContiguousBytes) async {
    key = SymmetricKey(data: secret)
  }

  func sign(_ claims: some Encodable) async throws -> String {
    let input = Self.header + "." + Base64URL.encode(try DeckJSON.compactEncoder.encode(claims))
    let signature = HMAC<Crypto.SHA256>.authenticationCode(for: Data(input.utf8), using: key)
    return input + "." + Base64URL.encode(Data(signature))
  }

  /// The anon key: the fixed ``AnonKeyClaims`` signed with this secret.
  func anonKey() async throws -> String {
    try await sign(AnonKeyClaims())
  }

  /// The claims of `token` if its signature is valid and it has not expired at `now` (unix seconds).
  func verify(_ token: String, now: Int) async -> AccessTokenClaims? {
    try? await check(token, now: now).get()
  }

  /// The claims of `token`, or why it is not a valid, unexpired access token at `now`. As in
  /// GoTrue, the signature is checked first, then the expiry, then the subject (a signed token
  /// without `sub`, such as the anon key, is no user's).
  func check(_ token: String, now: Int) async -> Result<AccessTokenClaims, JWTFailure> {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    // Three parts, and only HS256: a token that names another algorithm (`none`) is not the sandbox's.
    guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]),
      let header = try? JSONDecoder().decode(Header.self, from: headerBytes), header.alg == "HS256",
      let payload = Base64URL.decode(parts[1]), let signature = Base64URL.decode(parts[2])
    else { return .failure(.malformed) }
    let input = Data(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
    guard HMAC<Crypto.SHA256>.isValidAuthenticationCode(signature, authenticating: input, using: key) else {
      return .failure(.badSignature)
    }
    guard let registered = try? JSONDecoder().decode(RegisteredClaims.self, from: payload) else {
      return .failure(.malformed)
    }
    if let exp = registered.exp, exp <= now { return .failure(.expired) }
    guard let subject = registered.sub, !subject.isEmpty else { return .failure(.missingSubject) }
    guard let claims = try? JSONDecoder().decode(AccessTokenClaims.self, from: payload) else {
      return .failure(.malformed)
    }
    guard claims.exp > now else { return .failure(.expired) }
    return .success(claims)
  }

  private struct Header: Decodable {
    var alg: String
  }

  /// The claims every token is checked for before it is read as an access token.
  private struct RegisteredClaims: Decodable {
    var sub: String?
    var exp: Int?
  }

}
