import Foundation
import TestSupport
import Testing

/// Commands run in-process against the embedded sandbox (see `InProcessDeck`): the built-in
/// modules and the fixture feature (`deck fixture search`, ``FixtureItems``).
@Suite("Commands in-process", .serialized, .timeLimit(.minutes(2)))
struct CommandTests {
  let deck: InProcessDeck

  init() async throws { deck = try await InProcessDeck(features: .fixture) }

  @Test("a search prints JSON through the output path, and a table without --json")
  func search() async throws {
    let json = await deck.run(["fixture", "search", "alpha", "--limit", "3", "--json"])
    #expect(json.status == 0, "\(json.stderr)")
    let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
    #expect(rows.count == 3)
    #expect(rows.allSatisfy { ($0["name"] as? String)?.hasPrefix("Alpha") == true })
    let table = await deck.run(["fixture", "search", "alpha", "--limit", "2"])
    #expect(table.stdout.hasPrefix("NAME"))
    #expect(table.stdout.split(separator: "\n").count == 3)
    #expect(table.stderr.isEmpty)
  }

  @Test("usage errors exit 64 with the fix on stderr and nothing on stdout")
  func usageErrors() async {
    let typo = await deck.run(["fixture", "serch", "x"])
    #expect(typo.status == 64)
    #expect(typo.stderr.contains("Did you mean 'search'?"))
    #expect(typo.stdout.isEmpty)
    let limit = await deck.run(["fixture", "search", "x", "--limit", "0"])
    #expect(limit.status == 64)
    #expect(limit.stderr.contains("--limit must be between 1 and 50"))
    let empty = await deck.run(["fixture", "search", "   "])
    #expect(empty.status == 64)
    #expect(empty.stderr.contains("The search query is empty."))
  }

  @Test("a line is parsed by the deepest command it names; help and completion requests keep their answers")
  func parsingPathsAndRequests() async throws {
    // Options between the command names: parsed from the `fixture` level, as before.
    let between = await deck.run(["fixture", "--json", "search", "alpha", "--limit", "1"])
    #expect(between.status == 0, "\(between.stderr)")
    let rows = try #require(try JSONSerialization.jsonObject(with: Data(between.stdout.utf8)) as? [[String: Any]])
    #expect(rows.count == 1)
    // Help for a path of real commands is that command's help, on stdout.
    let help = await deck.run(["fixture", "search", "--help"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("USAGE: deck fixture search"))
    // A typo in a help request is named, also after an option's value (`--env sandbox`).
    for line in [["fixture", "serch", "--help"], ["--env", "sandbox", "fixture", "serch", "--help"]] {
      let typo = await deck.run(line)
      #expect(typo.status == 64, "\(line)")
      #expect(typo.stderr.contains("Unknown command 'serch'"), "\(line): \(typo.stderr)")
      #expect(typo.stderr.contains("Did you mean 'search'?"), "\(line)")
    }
    // A shell's completion request answers with the values only.
    let completion = await deck.run(["---completion", "--", "--env", "2", "2", "deck", "--env", "lo"])
    #expect(completion.status == 0, "\(completion.stderr)")
    #expect(completion.stdout.split(separator: "\n").contains("local"))
    #expect(!completion.stdout.contains("sandbox"))
    #expect(completion.stderr.isEmpty)
    // One for an argument of a command it names is answered by that command (the end-to-end
    // completion tests check the values a sandbox gives), one it cannot answer by the root.
    let names = await deck.run(
      ["---completion", "fixture", "search", "--", "positional@0", "3", "3", "deck", "fixture", "search", "alp"])
    #expect(names.status == 0, "\(names.stderr)")
    #expect(names.stdout.split(separator: "\n").contains("Alpha Partners"), "\(names.stdout)")
    #expect(!names.stdout.contains("Beta"), "\(names.stdout)")
    let unknown = await deck.run(["---completion", "fixture", "search", "--", "--nope", "3", "0", "deck"])
    #expect(unknown.status != 0)
  }

  @Test("env: the session's config file is the test's own")
  func environments() async throws {
    #expect(await deck.run(["env", "add", "lab"]).status == 0)
    let shown = await deck.run(["env", "show", "lab", "--json"])
    #expect(shown.stdout.contains("\"name\":\"lab\""))
    #expect(FileManager.default.fileExists(atPath: deck.home + "/config/deck/config.yml"))
  }
}
