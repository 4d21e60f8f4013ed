import Foundation
import PrefsRules
import Testing

@testable import PrefsModule

/// In-process: the edit document's text.
@Suite("deck prefs edit's document, in-process", .serialized, .timeLimit(.minutes(2)))
struct PrefsEditDocumentCommandTests {
  @Test("the edit document writes a URL as it is: no JSON escape of /, and it reads back")
  func editDocumentKeepsSlashes() throws {
    var player = PlayerDetails()
    player.facebookUrl = "https://facebook.com/slugger"
    player.highSchool = "A/B \"C\"\tD"
    let text = PrefsEditDocument.render(.player(player), owner: "a@b.co", environment: "sandbox")
    #expect(text.contains("\nfacebookUrl: https://facebook.com/slugger "), "\(text)")
    #expect(text.contains(#""A/B \"C\"\tD""#), "\(text)")
    #expect(!text.contains(#"\/"#))
    #expect(try PrefsEditDocument.parse(text, as: .player).get() == .player(player))
  }
}
