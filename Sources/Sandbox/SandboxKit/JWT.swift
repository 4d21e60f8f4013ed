import Crypto
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

  /// GoTrue's wording (after "invalid JWT: unable to parse or verify signature, ").
  var reason: String {
    switch self {
    case .malformed: "token is malformed"
    case .badSignature: "signature is invalid"
    case .expired: "token has invalid claims: token is expired"
    }
  }
}

/// HS256 JSON Web Tokens signed with the sandbox's persisted secret.
struct JWTSigner: Sendable {
  private let key: SymmetricKey

  init(secret: some ContiguousBytes) {
    self.key = SymmetricKey(data: secret)
  }

  /// `{"alg":"HS256","typ":"JWT"}`, base64url-encoded.
  private static let encodedHeader = Base64URL.encode(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))

  func sign(_ claims: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let signingInput = Self.encodedHeader + "." + Base64URL.encode(try encoder.encode(claims))
    let signature = HMAC<SHA256>.authenticationCode(for: Data(signingInput.utf8), using: key)
    return signingInput + "." + Base64URL.encode(Data(signature))
  }

  /// The anon key: the fixed ``AnonKeyClaims`` signed with this secret.
  func anonKey() throws -> String {
    try sign(AnonKeyClaims())
  }

  /// The claims of `token` if its signature is valid and it has not expired at `now` (unix seconds).
  func verify(_ token: String, now: Int) -> AccessTokenClaims? {
    try? check(token, now: now).get()
  }

  /// The claims of `token`, or why it is not a valid, unexpired access token at `now`.
  func check(_ token: String, now: Int) -> Result<AccessTokenClaims, JWTFailure> {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3,
      let headerData = Base64URL.decode(parts[0]),
      let payloadData = Base64URL.decode(parts[1]),
      let signature = Base64URL.decode(parts[2])
    else { return .failure(.malformed) }
    struct Header: Decodable { var alg: String }
    guard let header = try? JSONDecoder().decode(Header.self, from: headerData), header.alg == "HS256" else {
      return .failure(.malformed)
    }
    let signingInput = Data(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
    guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: signingInput, using: key) else {
      return .failure(.badSignature)
    }
    guard let claims = try? JSONDecoder().decode(AccessTokenClaims.self, from: payloadData) else {
      return .failure(.malformed)
    }
    guard claims.exp > now else { return .failure(.expired) }
    return .success(claims)
  }
}

/// Base64url without padding (RFC 7515, appendix C).
enum Base64URL {
  static func encode(_ data: Data) -> String {
    var text = data.base64EncodedString()
    text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    while text.hasSuffix("=") { text.removeLast() }
    return text
  }

  static func decode(_ text: some StringProtocol) -> Data? {
    guard !text.contains("="), !text.contains("+"), !text.contains("/") else { return nil }
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    let remainder = base64.count % 4
    if remainder == 1 { return nil }
    if remainder > 0 { base64 += String(repeating: "=", count: 4 - remainder) }
    return Data(base64Encoded: base64)
  }
}
