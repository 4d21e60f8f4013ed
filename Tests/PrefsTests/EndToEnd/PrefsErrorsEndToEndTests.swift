import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `deck prefs`'s errors: each names the problem and the fix, with its exit code, or falls back to
/// the cached copy or the defaults.
extension PrefsEndToEndTests {
  @Test("401 points to deck auth login")
  func unauthorized() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let anonymous = try deck.run(["prefs", "get", "notifications"])
    #expect(anonymous.status == 77)
    #expect(anonymous.stderr.contains("deck auth login"))
    let forged = try deck.run(
      ["prefs", "get", "notifications", "--no-cache"], environment: ["DECK_TOKEN": "eyJhbGciOiJIUzI1NiJ9.e30.c2ln"])
    #expect(forged.status == 77)
    #expect(forged.stderr.contains("Not signed in"))
    #expect(forged.stderr.contains("deck auth login"))
  }

  @Test("validation errors name the field, the value and what is allowed; nothing is sent")
  func validationErrorsNameTheField() throws {
    let (server, deck) = try signedIn()
    defer { withExtendedLifetime(server) {} }
    let range = try prefs(deck, ["set", "notifications", "followUpReminderDays=500", "--trace"], status: 64)
    #expect(range.stderr.contains("followUpReminderDays: 500 is out of range; allowed 1–90"))
    #expect(!range.stderr.contains("> "), "nothing was sent")
    let several = try prefs(deck, ["set", "player", "gpa=5.5", "bats=X", "satScore=300"], status: 64)
    #expect(several.stderr.contains("gpa: 5.5 is out of range; allowed 0.0–5.0"))
    #expect(several.stderr.contains(#"bats: "X" is not allowed; use L, R or S"#))
    #expect(several.stderr.contains("satScore: 300 is out of range; allowed 400–1600"))
    #expect(
      try prefs(deck, ["set", "player", "gpaa=3"], status: 64).stderr.contains(
        "gpaa: unknown player field; did you mean gpa?"))
    #expect(
      try prefs(
        deck, ["set", "notifications", "enableEmailNotifications=false", "emailOnlyHighPriority=true"], status: 64
      ).stderr.contains("emailOnlyHighPriority: has no effect while enableEmailNotifications is off"))
    #expect(try prefs(deck, ["get", "players"], status: 64).stderr.contains("player"))
    #expect(stored(try inspect(deck), "player")?["data"] is NSNull)
  }

  @Test("a 5xx fails with exit 69, or shows the cached copy with its age")
  func serverErrors() throws {
    let (server, deck) = try signedIn()
    defer { withExtendedLifetime(server) {} }
    _ = try prefs(deck, ["set", "notifications", "followUpReminderDays=21"])
    _ = try prefs(deck, ["get", "notifications"])  // caches
    let cache = deck.home + "/state/deck/prefs/local/athlete@sandbox.test/notifications.json"
    let mode = try #require(try FileManager.default.attributesOfItem(atPath: cache)[.posixPermissions] as? NSNumber)
    #expect(mode.intValue == 0o600)
    let fault = try deck.run(["sandbox", "fault", "add", "/api/user/preferences/notifications", "--status", "500"])
    #expect(fault.status == 0, "\(fault.stderr)")
    let failed = try prefs(deck, ["get", "notifications", "--no-cache"], status: 69)
    #expect(failed.stderr.contains("The recruiting service failed"))
    let cached = try prefs(deck, ["get", "notifications", "--json"])
    #expect(cached.stderr.contains("warning: The recruiting service failed"))
    #expect(cached.stderr.contains("cached"))
    #expect(cached.stderr.contains(" ago ("))
    let view = try #require(try json(cached.stdout) as? [String: Any])
    #expect(view["source"] as? String == "cache")
    #expect((view["data"] as? [String: Any])?["followUpReminderDays"] as? Int == 21)
    #expect(try prefs(deck, ["set", "notifications", "followUpReminderDays=22"], status: 69).stderr.contains("failed"))
  }

  @Test("a timeout fails with exit 69, or shows the cached copy")
  func timeouts() throws {
    let (server, deck) = try signedIn()
    defer { withExtendedLifetime(server) {} }
    _ = try prefs(deck, ["get", "dashboard"])
    let fault = try deck.run(["sandbox", "fault", "add", "/api/user/preferences/dashboard", "--latency", "3000"])
    #expect(fault.status == 0, "\(fault.stderr)")
    let slow = try prefs(deck, ["get", "dashboard", "--timeout", "0.5", "--no-cache"], status: 69)
    #expect(slow.stderr.contains("did not answer within 0.5 s"))
    let cached = try prefs(deck, ["get", "dashboard", "--timeout", "0.5"])
    #expect(cached.stderr.contains("did not answer within 0.5 s"))
    #expect(cached.stderr.contains("Showing the dashboard settings cached"))
    #expect(cached.stdout.contains("Summary Statistics (8 of 8 shown)"))
    #expect(slow.stderr.contains("Try again, or allow more time"))
  }

  /// A save that timed out may still have been stored (the prefs QA scenarios saw it stored,
  /// and "Try again" then said "Nothing changed"): the hint says to check first.
  @Test("a timed-out save says the server may have made the change anyway")
  func saveTimeouts() throws {
    let (server, deck) = try signedIn()
    defer { withExtendedLifetime(server) {} }
    let fault = try deck.run([
      "sandbox", "fault", "add", "/api/user/preferences/notifications", "--method", "POST", "--latency", "3000",
    ])
    #expect(fault.status == 0, "\(fault.stderr)")
    let slow = try prefs(deck, ["set", "notifications", "followUpReminderDays=20", "--timeout", "0.5"], status: 69)
    #expect(slow.stderr.contains("did not answer within 0.5 s"), "\(slow.stderr)")
    #expect(slow.stderr.contains("may have made the change anyway: check before you try again"), "\(slow.stderr)")
  }

  @Test("corrupted stored data falls back to the defaults with a warning naming the bad fields")
  func corruptedData() async throws {
    let (server, deck) = try signedIn()
    var request = URLRequest(url: try #require(URL(string: server.url + "/__sandbox/v1/prefs/stored")))
    request.httpMethod = "PUT"
    request.setValue("Bearer \(server.adminToken)", forHTTPHeaderField: "Authorization")
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(
      #"{"email":"athlete@sandbox.test","category":"notifications","data":{"followUpReminderDays":500}}"#.utf8)
    let (_, response) = try await URLSession.shared.data(for: request)
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
    let shown = try prefs(deck, ["get", "notifications"])
    #expect(
      shown.stderr.contains(
        "stored notifications are invalid (followUpReminderDays: 500 is out of range; allowed 1–90); showing the defaults"
      ))
    #expect(shown.stdout.contains("Days between follow-ups"))
    // A write replaces the bad document.
    _ = try prefs(deck, ["set", "notifications", "followUpReminderDays=10"])
    #expect(try get(deck, "notifications")["source"] as? String == "stored")
  }
}
