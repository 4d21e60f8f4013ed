import Foundation
import TestSupport
import Testing

/// `deck mbti` run in-process against the embedded sandbox (see `InProcessDeck`).
@Suite("MBTI commands in-process", .serialized, .timeLimit(.minutes(2)))
struct MbtiCommandTests {
  let deck: InProcessDeck

  init() async throws { deck = try await InProcessDeck() }

  @Test("a submitted answer set gives its type and is kept in this session's state")
  func mbtiSubmit() async throws {
    let file = deck.home + "/answers.json"
    try "[3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3]".write(toFile: file, atomically: true, encoding: .utf8)
    let submitted = await deck.run(["mbti", "submit", "--answers", file])
    #expect(submitted.status == 0, "\(submitted.stderr)")
    #expect(submitted.stdout.hasPrefix("INFP\n"))
    let result = await deck.run(["mbti", "result", "--json"])
    #expect(result.stdout.contains("\"profile\":\"INFP\""))
    let missing = await deck.run(["mbti", "submit", "--answers", deck.home + "/nope.json"])
    #expect(missing.status == 64)
  }
}
