import Crypto
import Foundation

/// The claims of a sandbox access token (the GoTrue subset deck relies on).
struct AccessTokenClaims: Codable, Equatable, Sendable {
  var sub: String
  var email: String
  var role: String
  var aud: String
  var iat: Int
  var exp: Int
  /// Unique per issued token, as GoTrue's `session_id`: two tokens issued in the same second differ.
  var session_id: String

  init(userID: String, email: String, issuedAt: Int, ttl: Int) {
    self.sub = userID
    self.email = email
    self.role = "authenticated"
    self.aud = "authenticated"
    self.iat = issuedAt
    self.exp = issuedAt + ttl
    self.session_id = UUID().uuidString.lowercased()
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

  func sign(_ claims: AccessTokenClaims) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let signingInput = Self.encodedHeader + "." + Base64URL.encode(try encoder.encode(claims))
    let signature = HMAC<SHA256>.authenticationCode(for: Data(signingInput.utf8), using: key)
    return signingInput + "." + Base64URL.encode(Data(signature))
  }

  /// The claims of `token` if its signature is valid and it has not expired at `now` (unix seconds).
  func verify(_ token: String, now: Int) -> AccessTokenClaims? {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3,
      let headerData = Base64URL.decode(parts[0]),
      let payloadData = Base64URL.decode(parts[1]),
      let signature = Base64URL.decode(parts[2])
    else { return nil }
    let signingInput = Data(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
    guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: signingInput, using: key) else {
      return nil
    }
    struct Header: Decodable { var alg: String }
    guard let header = try? JSONDecoder().decode(Header.self, from: headerData), header.alg == "HS256",
      let claims = try? JSONDecoder().decode(AccessTokenClaims.self, from: payloadData),
      claims.exp > now
    else { return nil }
    return claims
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
