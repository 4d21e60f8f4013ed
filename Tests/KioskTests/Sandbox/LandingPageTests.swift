import Testing

@testable import KioskServer

@Suite("The review landing page's HTML")
struct LandingPageTests {
  @Test("a quote before a combining mark in the store's review link or the text cannot end an attribute")
  func combiningMarksCannotEndAnAttribute() {
    let page = LandingPage.review(
      text: "Great \"\u{301}coffee<\u{338}b>", rating: 5, storeName: "Café \"\u{301}", items: [],
      postURL: "https://example.com/\"\u{301} onmouseover=\"alert(1)")
    let scalars = Array(page.unicodeScalars)
    let rawQuoteBeforeMark = zip(scalars, scalars.dropFirst()).contains { $0 == "\"" && $1 == "\u{301}" }
    #expect(!rawQuoteBeforeMark)
    #expect(!zip(scalars, scalars.dropFirst()).contains { $0 == "<" && $1 == "\u{338}" })
    let link = "href=\"https://example.com/&quot;\u{301} onmouseover=&quot;alert(1)\""
    #expect(contains(page, link))
  }

  /// Whether `text` holds `part`, scalar by scalar.
  func contains(_ text: String, _ part: String) -> Bool {
    let whole = Array(text.unicodeScalars)
    let needle = Array(part.unicodeScalars)
    guard needle.count <= whole.count else { return false }
    return (0...(whole.count - needle.count)).contains { whole[$0..<($0 + needle.count)].elementsEqual(needle) }
  }
}
