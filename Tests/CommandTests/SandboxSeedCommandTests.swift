import Foundation
import TestSupport
import Testing

/// `deck sandbox seed --synthetic KIND=COUNT`: the kinds are the features' (the core names none),
/// checked for form before anything is sent; an unknown kind is the sandbox's to name.
@Suite("Sandbox seed in-process", .serialized, .timeLimit(.minutes(2)))
struct SandboxSeedCommandTests {
  let deck: InProcessDeck

  init() async throws { deck = try await InProcessDeck() }

  @Test("--synthetic takes KIND=COUNT with a count up to 1,000,000; nothing is sent otherwise")
  func syntheticForm() async {
    for bad in ["rows", "=3", "rows=", "rows=many", "rows=-1", "rows=1000001"] {
      let refused = await deck.run(["sandbox", "seed", "--synthetic", bad])
      #expect(refused.status == 64, "\(bad): \(refused.stderr)")
      #expect(refused.stderr.contains("--synthetic"), "\(bad): \(refused.stderr)")
    }
  }

  @Test("an unknown kind is refused with the kinds the features declare; a known one adds rows")
  func syntheticKinds() async throws {
    let unknown = await deck.run(["sandbox", "seed", "--synthetic", "no-such-kind=1"])
    #expect(unknown.status != 0, "\(unknown.stderr)")
    #expect(unknown.stderr.contains(#"no synthetic data of kind "no-such-kind"; known: "#), "\(unknown.stderr)")
    let known = try #require(unknown.stderr.components(separatedBy: "known: ").last)
    let kind = String(known.prefix { $0.isLetter || $0 == "_" || $0 == "-" })
    try #require(!kind.isEmpty, "\(unknown.stderr)")
    let added = await deck.run(["sandbox", "seed", "--synthetic", "\(kind)=3"])
    #expect(added.status == 0, "\(added.stderr)")
    #expect(added.stderr.contains("Added 3 synthetic \(kind)."), "\(added.stderr)")
  }
}
