import Foundation

/// The claims deck reads from an access token. deck never verifies the signature (the
/// server does); it reads `exp` to refresh in time and `email` to name the account.
public struct JWTClaims: Sendable, Equatable {
  public var subject: String?
  public var email: String?
  public var expiresAt: Date?
  public var issuedAt: Date?

  public init?(token: String) {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let payload = Self.base64URLDecode(String(parts[1])),
      let object = try? JSONSerialization.jsonObject(with: payload) as? [String: Any]
    else { return nil }
    subject = object["sub"] as? String
    email = object["email"] as? String
    expiresAt = (object["exp"] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue) }
    issuedAt = (object["iat"] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue) }
  }

  static func base64URLDecode(_ text: String) -> Data? {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64.append("=") }
    return Data(base64Encoded: base64)
  }
}
