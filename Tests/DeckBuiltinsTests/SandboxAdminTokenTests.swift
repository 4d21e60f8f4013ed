import DeckConfig
import DeckSupport
import SandboxLaunch
import TestFixtures
import Testing

@testable import DeckBuiltins
@testable import DeckCore

/// Issue 31: `deck env add NAME --sandbox URL` takes a sandbox's admin token only from a server
/// of this user at a loopback URL, and only one the server accepts.
@Suite("env --sandbox: finding the admin token")
struct SandboxAdminTokenTests {
  init() { FeatureServices.register() }

  /// A finder over a fake server on 127.0.0.1:8787 that holds `held` (nil: nothing listens) and
  /// answers proof requests with `status`. It never sees a token: only nonces.
  func finder(_ candidates: [String], accepted held: String?, open status: Int = 200) -> SandboxAdminTokenFinder {
    SandboxAdminTokenFinder(
      candidates: { address in
        address.port == 8787
          ? candidates.map { SandboxAdminTokenFinder.Candidate(token: $0, source: "record \($0)") } : []
      },
      challenge: { address, nonce in
        guard address == LoopbackAddress(host: "127.0.0.1", port: 8787), let held else { return nil }
        return (status, status == 200 ? SandboxProof.answer(adminToken: held, nonce: nonce) : nil)
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
    // Something else on the port: it does not answer the proof request.
    guard case .notFound(let reason) = finder(["good"], accepted: "good", open: 404).find(url: "http://127.0.0.1:8787")
    else {
      Issue.record("a server that is not a sandbox was sent a token")
      return
    }
    #expect(reason.contains("is not a deck sandbox"))
  }
}

extension SandboxAdminTokenTests {
  /// A server that replays a proof it saw (or answers another token's) proves nothing: each
  /// request has a fresh nonce.
  @Test func aReplayedProofProvesNothing() {
    let replayed = SandboxProof.answer(adminToken: "good", nonce: SandboxProof.nonce())
    let finder = SandboxAdminTokenFinder(
      candidates: { _ in [.init(token: "good", source: "record")] },
      challenge: { address, _ in address.host == "127.0.0.1" ? (200, replayed) : nil })
    guard case .notFound = finder.find(url: "http://127.0.0.1:8787") else {
      Issue.record("a replayed proof was taken")
      return
    }
  }

  /// `localhost` is both loopback addresses: the server on [::1] proves its token even when
  /// another process answers on 127.0.0.1 at the same port.
  @Test func localhostFindsTheServerOnEitherAddress() {
    let finder = SandboxAdminTokenFinder(
      candidates: { address in address.host == "::1" ? [.init(token: "good", source: "served on ::1")] : [] },
      challenge: { address, nonce in
        address.host == "::1" ? (200, SandboxProof.answer(adminToken: "good", nonce: nonce)) : (200, "0")
      })
    #expect(finder.find(url: "http://localhost:8787") == .found(.init(token: "good", source: "served on ::1")))
    #expect(finder.find(url: "http://[::1]:8787") == .found(.init(token: "good", source: "served on ::1")))
    guard case .notFound = finder.find(url: "http://127.0.0.1:8787") else {
      Issue.record("the process on 127.0.0.1 was trusted")
      return
    }
  }
}
