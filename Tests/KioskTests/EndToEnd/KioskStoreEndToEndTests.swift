import Foundation
import TestSupport
import Testing

/// `deck sandbox trigger store`: a store of its own, so that a QA scenario's kiosk sessions are
/// its alone on a shared sandbox. The real `deck` against `deck sandbox serve`.
@Suite("Kiosk stores made for a client", .endToEndTimeLimit)
struct KioskStoreEndToEndTests: KioskSteps {
  func sessions(_ deck: DeckCLI, _ store: String) throws -> [String: Int]? {
    try object(deck, ["sandbox", "inspect", "store", store, "--json"])["sessions"] as? [String: Int]
  }

  @Test func aNewStoreIsItsCreatorsAlone() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let store = try object(deck, ["sandbox", "trigger", "store", "store_qa_1", "--name", "QA Boutique", "--json"])
    #expect(store["publicId"] as? String == "store_qa_1")
    #expect(store["name"] as? String == "QA Boutique")
    #expect((store["sessions"] as? [String: Int])?.values.allSatisfy { $0 == 0 } == true)
    let again = try deck.run(["sandbox", "trigger", "store", "store_qa_1"])
    #expect(again.status == 65, "\(again.stderr)")
    #expect(again.stderr.contains("exists already"), "\(again.stderr)")
    // A seeded store's id is taken too.
    #expect(try deck.run(["sandbox", "trigger", "store", "store_demo"]).status == 65)
    let bad = try deck.run(["sandbox", "trigger", "store", "store qa"])
    #expect(bad.status == 64, "\(bad.stderr)")
    #expect(bad.stderr.contains("letters, digits"), "\(bad.stderr)")
    _ = try purchase(deck, store: "store_qa_1")
    #expect(try sessions(deck, "store_qa_1")?["PENDING"] == 1)
    #expect(try sessions(deck, "store_demo")?["PENDING"] == 0, "the seeded store got nothing")
  }
}
