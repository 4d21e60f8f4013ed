import Foundation
import PrefsRules
import Testing

@testable import PrefsModule

/// The text of `deck prefs edit`'s document: scalars spelled by DeckYAML's writer.
@Suite("deck prefs edit's document text")
struct PrefsEditDocumentTests {
  @Test(
    "tricky text (YAML 1.1 words, numbers' spellings, ': ', '#', quotes) is quoted only where it must be, and reads back",
    arguments: [
      ("yes", "'yes'"), ("no", "'no'"), ("on", "'on'"), ("0x1", "'0x1'"), ("1e3", "'1e3'"), ("null", "'null'"),
      ("a: b", "'a: b'"), ("#1", "'#1'"), ("a #b", "'a #b'"), ("a#b", "a#b"), ("it's", "it's"),
      ("Lincoln \"High\" # 1", "'Lincoln \"High\" # 1'"), ("- x", "'- x'"), ("A/B \"C\"\tD", #""A/B \"C\"\tD""#),
    ])
  func trickyTextRoundTrips(text: String, spelled: String) throws {
    var player = PlayerDetails()
    player.highSchool = text
    let document = PrefsEditDocument.render(.player(player), owner: "a@b.co", environment: "sandbox")
    #expect(document.contains("\nhighSchool: \(spelled) "), "\(document)")
    #expect(try PrefsEditDocument.parse(document, as: .player).get() == .player(player), "\(document)")
  }

  @Test("text with white space at either end is quoted: a plain scalar would be read back trimmed")
  func outerSpaceIsQuoted() {
    var player = PlayerDetails()
    player.highSchool = " Lincoln"
    let document = PrefsEditDocument.render(.player(player), owner: "a@b.co", environment: "sandbox")
    #expect(document.contains("\nhighSchool: ' Lincoln' "), "\(document)")
  }

  @Test("list items are spelled for a flow list: a comma is quoted there")
  func flowItems() {
    #expect(PrefsEditDocument.scalar(.array([.string("a,b"), .string("c"), .int(1)])) == "['a,b', c, 1]")
    #expect(PrefsEditDocument.scalar(.string("a,b")) == "a,b")
  }
}
