import FoundationEssentials

/// A sandbox server proves that it holds an admin token without anyone sending the token: deck
/// asks `GET /__sandbox/v1/proof?nonce=N` (no token) and the server answers
/// HMAC-SHA256(token, "deck-sandbox-proof:" + N). deck compares that with the HMAC of the token
/// it holds, and only then sends the token to that server. Another process listening where a
/// record said the server was learns nothing.
public enum SandboxProof {
  public static let path = "/__sandbox/v1/proof"

  /// A fresh nonce: 16 random bytes, in lowercase hex.
  public static func nonce() -> String {
    var generator = SystemRandomNumberGenerator()
    return SHA256.hex((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
  }

  /// Whether `text` is a nonce a server answers: 32 to 128 lowercase hex digits.
  public static func isNonce(_ text: String) -> Bool {
    (32...128).contains(text.utf8.count) && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
  }

  /// The answer of a server that holds `adminToken` to `nonce`: 64 lowercase hex digits.
  public static func answer(adminToken: String, nonce: String) -> String {
    SHA256.hex(SHA256.hmac(key: Array(adminToken.utf8), message: Array(("deck-sandbox-proof:" + nonce).utf8)))
  }

  /// The proof in a server's JSON answer, `{"proof": "HEX"}`.
  public static func proof(inAnswer body: [UInt8]) -> String? {
    struct Answer: Decodable { var proof: String }
    return (try? JSONDecoder().decode(Answer.self, from: Data(body)))?.proof
  }
}
