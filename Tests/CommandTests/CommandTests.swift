import Foundation
import Testing

/// Commands run in-process against the embedded sandbox (see `InProcessDeck`).
@Suite("Commands in-process", .serialized, .timeLimit(.minutes(2)))
struct CommandTests {
  let deck: InProcessDeck

  init() throws { deck = try InProcessDeck() }

  @Test("a search prints JSON through the output path, and a table without --json")
  func search() async throws {
    let json = await deck.run(["brokerage", "search", "keller", "--limit", "3", "--json"])
    #expect(json.status == 0, "\(json.stderr)")
    let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
    #expect(rows.count == 3)
    #expect(rows.allSatisfy { ($0["name"] as? String)?.hasPrefix("Keller Williams") == true })
    let table = await deck.run(["brokerage", "search", "keller", "--limit", "2"])
    #expect(table.stdout.hasPrefix("NAME"))
    #expect(table.stdout.split(separator: "\n").count == 3)
    #expect(table.stderr.isEmpty)
  }

  @Test("usage errors exit 64 with the fix on stderr and nothing on stdout")
  func usageErrors() async {
    let typo = await deck.run(["brokerage", "serch", "x"])
    #expect(typo.status == 64)
    #expect(typo.stderr.contains("Did you mean 'search'?"))
    #expect(typo.stdout.isEmpty)
    let limit = await deck.run(["brokerage", "search", "x", "--limit", "0"])
    #expect(limit.status == 64)
    #expect(limit.stderr.contains("--limit must be between 1 and 50"))
    let empty = await deck.run(["brokerage", "search", "   "])
    #expect(empty.status == 64)
    #expect(empty.stderr.contains("The search query is empty."))
  }

  @Test("mbti: a submitted answer set gives its type and is kept in this session's state")
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

  @Test("env: the session's config file is the test's own")
  func environments() async throws {
    #expect(await deck.run(["env", "add", "lab"]).status == 0)
    let shown = await deck.run(["env", "show", "lab", "--json"])
    #expect(shown.stdout.contains("\"name\":\"lab\""))
    #expect(FileManager.default.fileExists(atPath: deck.home + "/config/deck/config.yml"))
  }
}
