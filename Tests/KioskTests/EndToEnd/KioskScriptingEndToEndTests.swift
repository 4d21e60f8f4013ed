import Foundation
import TestSupport
import Testing

/// What scripts need from the kiosk's one-shot commands (issue 31, items 4 and 5): every step
/// names the session it acted on and that session's status after the step, `next` takes the
/// newest purchase first, and `pair`/`unpair` can be re-run. The real `deck` against `deck
/// sandbox serve`.
@Suite("Kiosk scripting", .endToEndTimeLimit)
struct KioskScriptingEndToEndTests: KioskSteps {
  /// The `acted` object of a step's JSON: [publicId, status].
  func acted(_ object: [String: Any]) -> [String]? {
    guard let acted = object["acted"] as? [String: Any] else { return nil }
    return [acted["publicId"] as? String ?? "?", acted["status"] as? String ?? "?"]
  }

  @Test func everyStepNamesTheSessionItActedOnAndItsStatusAfterIt() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    try object(deck, ["kiosk", "pair", "store_demo", "--json"])
    let idle = try object(deck, ["kiosk", "next", "--json"])
    #expect(idle["acted"] is NSNull, "a next that found nothing acted on no session")
    #expect(try object(deck, ["kiosk", "status", "--json"])["acted"] is NSNull)

    let id = try purchase(deck)
    #expect(acted(try object(deck, ["kiosk", "next", "--json"])) == [id, "PENDING"])
    #expect(acted(try object(deck, ["kiosk", "rate", "5", "--json"])) == [id, "RATED"])
    #expect(acted(try object(deck, ["kiosk", "approve", "--json"])) == [id, "APPROVED"])
    let done = try object(deck, ["kiosk", "done", "--json"])
    #expect(acted(done) == [id, "POSTED_INTENT"], "the final status, which `session` (idle: null) cannot show")
    #expect(done["session"] is NSNull, "existing fields are kept")
    #expect(done["screen"] as? String == "idle")

    let declined = try purchase(deck)
    try object(deck, ["kiosk", "next", "--json"])
    try object(deck, ["kiosk", "rate", "2", "--json"])
    #expect(acted(try object(deck, ["kiosk", "decline", "--json"])) == [declined, "DECLINED"])

    let cancelled = try purchase(deck)
    try object(deck, ["kiosk", "next", "--json"])
    #expect(acted(try object(deck, ["kiosk", "cancel", "--json"])) == [cancelled, "PENDING"])

    // --jq reaches it as a script would.
    let status = try deck.run(["kiosk", "status", "--jq", ".acted"])
    #expect(status.status == 0 && status.stdout == "null\n", "\(status.stderr)")
  }

  @Test func nextTakesTheNewestPendingPurchaseFirst() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    try object(deck, ["kiosk", "pair", "store_demo", "--json"])
    let bought = try (1...3).map { _ in try purchase(deck) }
    var met: [String] = []
    for _ in bought {
      let next = try object(deck, ["kiosk", "next", "--json"])
      met.append(try #require(acted(next)?.first))
      try object(deck, ["kiosk", "rate", "3", "--json"])
      try object(deck, ["kiosk", "decline", "--json"])
    }
    #expect(met == bought.reversed(), "newest first, as `kiosk next --help` says")
    let help = try deck.run(["kiosk", "next", "--help"])
    #expect(help.stdout.contains("the newest comes first"))
  }

  @Test func pairingTheSameStoreAgainOrUnpairingAnUnpairedKioskChangesNothingAndSucceeds() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let unpaired = try deck.run(["kiosk", "unpair", "--json"])
    #expect(unpaired.status == 0, "\(unpaired.stderr)")
    #expect(unpaired.stderr.contains("was not paired"))
    #expect((try json(unpaired.stdout) as? [String: Any])?["changed"] as? Bool == false)

    #expect(try object(deck, ["kiosk", "pair", "store_demo", "--json"])["changed"] as? Bool == true)
    let again = try deck.run(["kiosk", "pair", "store_demo", "--json"])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stderr.contains("already paired with store store_demo"))
    let repeated = try #require(try json(again.stdout) as? [String: Any])
    #expect(repeated["changed"] as? Bool == false)
    #expect(repeated["storePublicId"] as? String == "store_demo")

    // Another store still needs unpair or --force.
    let other = try deck.run(["kiosk", "pair", "store_abc123"])
    #expect(other.status == 64)
    #expect(other.stderr.contains("deck kiosk unpair") && other.stderr.contains("--force"), "\(other.stderr)")
    let unknown = try deck.run(["kiosk", "pair", "--force", "store_nope"])
    #expect(unknown.status == 1, "\(unknown.stderr)")
    #expect(unknown.stderr.contains("still paired with store store_demo"), "\(unknown.stderr)")
    #expect(try object(deck, ["kiosk", "status", "--json"])["storePublicId"] as? String == "store_demo")
    let forced = try object(deck, ["kiosk", "pair", "--force", "store_abc123", "--json"])
    #expect(forced["storePublicId"] as? String == "store_abc123")
    #expect(forced["changed"] as? Bool == true)

    #expect(try object(deck, ["kiosk", "unpair", "--json"])["changed"] as? Bool == true)
    #expect(try deck.run(["kiosk", "unpair"]).status == 0)
  }

  @Test func aScriptCapturesTheSessionIdAndSeesItsFinalStatus() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let path = deck.home + "/review.deck"
    try """
    kiosk pair store_demo --json
    kiosk pair store_demo --json    # a re-run pairs again: no error
    sandbox trigger purchase --store store_demo --json
    let sid = kiosk next --jq .acted.publicId
    kiosk rate 4 --json
    kiosk approve --json
    let final = deck kiosk done --jq .acted.status
    sandbox inspect session $sid --jq '"\\(.publicId) \\(.status)"'
    sandbox inspect session "${sid}" --jq ".status == \\"$final\\""

    """.write(toFile: path, atomically: true, encoding: .utf8)
    let result = try deck.run(["run", path])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 7, "the let lines print nothing: \(result.stdout)")
    guard lines.count == 7 else { return }
    let triggered = try #require(try json(lines[2]) as? [String: Any])
    let id = try #require(triggered["publicId"] as? String)
    #expect(lines[5] == "\(id) POSTED_INTENT")
    #expect(lines[6] == "true")
  }
}
