import Foundation
import Testing

/// Found by schemathesis on PostgreSQL: text with a NUL character, which PostgreSQL cannot
/// store, was a 500. It is the request's fault: 400 on either engine, and nothing is stored.
extension PrefsServerTests {
  @Test("text holding a NUL character is refused with 400 on either engine, and not stored")
  func nulInTextIsABadRequest() async throws {
    try await withSandbox { base, _ in
      let athlete = try await token(base, "athlete@sandbox.test")
      let refused = try await request(
        base, "POST", "/api/user/preferences/player/history",
        body: #"{"changes": [{"field": "gpa\u0000", "old": null, "new": "3.9"}]}"#, bearer: athlete)
      #expect(refused.status == 400, "\(refused.object)")
      let history = try await request(base, "GET", "/api/user/preferences/player/history", bearer: athlete)
      #expect(history.status == 200)
      #expect(!"\(history.object)".contains("gpa"), "nothing was recorded: \(history.object)")
    }
  }
}
