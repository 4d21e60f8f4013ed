import DeckSupport
import DeckValues
import FoundationEssentials
import Testing

@Suite("The one JSON string quoting and the one markup escaper")
struct TextEscapingTests {
  @Test("JSONText.quoted spells every string as deck's JSON encoder does, and the decoder reads it back")
  func jsonQuotingIsTheEncoders() throws {
    var samples = (0..<0x80).map { String(Unicode.Scalar(UInt8($0))) }
    samples += ["https://example.com/a?b=c", "é\u{301}", "\u{85}\u{2028}\u{2029}", "🦆", "\"\u{301}", "a\\\"b", ""]
    for text in samples {
      let encoded = String(decoding: try DeckJSON.compactEncoder.encode(text), as: UTF8.self)
      #expect(JSONText.quoted(text) == encoded, "\(Array(text.unicodeScalars))")
      #expect(try DeckJSON.decoder.decode(String.self, from: Data(JSONText.quoted(text).utf8)) == text)
    }
  }

  @Test("MarkupText.escape escapes by scalar: a quote or < before a combining mark is still escaped")
  func markupEscapesScalars() {
    #expect(MarkupText.escape("\"\u{301} onclick=\"x\u{301}") == "&quot;\u{301} onclick=&quot;x\u{301}")
    #expect(MarkupText.escape("<\u{338}b>&\u{301}'") == "&lt;\u{338}b&gt;&amp;\u{301}&#39;")
    #expect(MarkupText.escape("a\nb\r\n\tc\u{1B}d\u{85}\u{2028}\u{FFFE}") == "a&#10;b&#13;&#10;&#9;cd&#133;&#8232;")
  }
}
