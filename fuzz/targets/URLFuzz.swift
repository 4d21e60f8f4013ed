import DeckSupport
import Foundation

// libFuzzer target: URL and environment parsing (base URLs from config.yml, `deck env set`
// and DECK_*_URL; environment names; loopback detection). Invariants: nothing traps; every
// URL deck accepts is one Foundation accepts (deck builds URLs from them without checks).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  for candidate in [text, "https://" + text, "http://" + text + ":8080/x"] {
    if let parsed = ParsedURL(candidate) {
      precondition(URL(string: candidate) != nil, "accepted a URL Foundation rejects: \(candidate)")
      _ = URLPolicy.isLoopback(parsed.host)
    }
    for insecure in [false, true] {
      _ = try? URLPolicy.validate(candidate, service: .auth, environment: "fuzz", allowInsecureHTTP: insecure)
    }
  }
  _ = try? URLPolicy.validateName(text)
  _ = URLPolicy.isLoopback(text)
  _ = IPAddress.v4(text)
  _ = IPAddress.v6(text)
  return 0
}
