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
    expiresAt = Self.date(object["exp"])
    issuedAt = Self.date(object["iat"])
  }

  /// A NumericDate (seconds since 1970), only when it is a plausible one: a token's `exp` of
  /// 1e300 or NaN would otherwise reach date arithmetic and the token file's encoder.
  static func date(_ value: Any?) -> Date? {
    guard let number = value as? NSNumber, !(value is Bool) else { return nil }
    let seconds = number.doubleValue
    guard seconds.isFinite, abs(seconds) <= 253_402_300_799 else { return nil }  // up to year 9999
    return Date(timeIntervalSince1970: seconds)
  }

  static func base64URLDecode(_ text: String) -> Data? {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64.append("=") }
    return Data(base64Encoded: base64)
  }
}
