import DeckConfig
import Testing

@testable import DeckBuiltins

/// Issue 31: `deck env add NAME --sandbox URL` takes a sandbox's admin token only from a server
/// of this user at a loopback URL, and only one the server accepts.
@Suite("env --sandbox: finding the admin token")
struct SandboxAdminTokenTests {
  init() { FeatureServices.register() }

  /// A finder over a fake server on port 8787 that accepts `accepted` (nil: nothing listens).
  func finder(_ candidates: [String], accepted: String?, open: Int = 401) -> SandboxAdminTokenFinder {
    SandboxAdminTokenFinder(
      candidates: { port in
        port == 8787 ? candidates.map { SandboxAdminTokenFinder.Candidate(token: $0, source: "record \($0)") } : []
      },
      probe: { port, bearer in
        guard port == 8787, let accepted else { return nil }
        guard let bearer else { return open }
        return bearer == accepted ? 200 : 401
      })
  }

  @Test func theFirstTokenTheServerAcceptsIsTaken() {
    let found = finder(["stale", "good"], accepted: "good").find(url: "http://127.0.0.1:8787")
    #expect(found == .found(.init(token: "good", source: "record good")))
    #expect(
      finder(["good"], accepted: "good").find(url: "http://localhost:8787/")
        == .found(.init(token: "good", source: "record good")))
    // Not one of ours: nothing is taken, and the note says how to give it.
    guard case .notFound(let reason) = finder(["stale"], accepted: "good").find(url: "http://127.0.0.1:8787") else {
      Issue.record("a token the server refuses was taken")
      return
    }
    #expect(reason.contains("not started by `deck sandbox serve` of this user"))
    let note = SandboxPointing.note(environment: "qa", outcome: .notFound(reason))
    #expect(note.contains("deck env set qa sandbox-admin-token=TOKEN"))
  }

  @Test func onlyALoopbackSandboxThatAnswersIsAsked() {
    let probed = finder(["good"], accepted: "good")
    for url in ["https://127.0.0.1:8787", "http://10.0.0.1:8787", "http://127.0.0.1:8787/api"] {
      guard case .notFound = probed.find(url: url) else {
        Issue.record("\(url) gave a token")
        continue
      }
    }
    #expect(
      finder(["good"], accepted: nil).find(url: "http://127.0.0.1:8787")
        == .notFound("nothing answers at http://127.0.0.1:8787 (start it with: deck sandbox serve)"))
    // Something else on the port: its operator path is not a sandbox's 401.
    guard case .notFound(let reason) = finder(["good"], accepted: "good", open: 404).find(url: "http://127.0.0.1:8787")
    else {
      Issue.record("a server that is not a sandbox was sent a token")
      return
    }
    #expect(reason.contains("is not a deck sandbox"))
  }
}
