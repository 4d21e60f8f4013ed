import Foundation

// libFuzzer target: JWT claims decoding (deck reads `exp`, `iat`, `email` and `sub` from
// tokens it is given). Inputs are tried as a whole token and as the payload of one.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  let text = String(decoding: bytes, as: UTF8.self)
  for claims in [JWTClaims(token: text)].compactMap({ $0 }) {
    for date in [claims.expiresAt, claims.issuedAt].compactMap({ $0 }) {
      precondition(date.timeIntervalSince1970.isFinite, "an implausible date was accepted")
    }
  }
  let payload = Data(bytes).base64EncodedString().replacingOccurrences(of: "=", with: "")
    .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
  if let claims = JWTClaims(token: "eyJhbGciOiJIUzI1NiJ9.\(payload).c2ln") {
    _ = claims.expiresAt?.timeIntervalSinceNow
  }
  return 0
}
