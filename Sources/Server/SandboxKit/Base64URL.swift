import ExtrasBase64
import Foundation

/// Base64url without padding (RFC 4648 §5), as JSON Web Tokens, refresh tokens and PKCE
/// challenges spell bytes.
enum Base64URL {
  static func encode(_ bytes: some Collection<UInt8>) -> String {
    Base64.encodeToString(bytes: bytes, options: [.base64UrlAlphabet, .omitPaddingCharacter])
  }

  /// The bytes of `text`, or nil when it is not base64url without padding.
  static func decode(_ text: some StringProtocol) -> Data? {
    (try? Base64.decode(string: String(text), options: [.base64UrlAlphabet, .omitPaddingCharacter])).map { Data($0) }
  }
}
