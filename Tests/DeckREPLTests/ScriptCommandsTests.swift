import DeckSupport
import Testing

@testable import DeckREPL

/// How script mode reads a script: a command at a time, one ahead of the one running, so the
/// next command can be parsed while the current one waits for the server.
@Suite("Script commands")
struct ScriptCommandsTests {
  func items(_ lines: [String]) -> [ScriptCommands<IndexingIterator<[String]>>.Item] {
    var commands = ScriptCommands(lines: lines.makeIterator())
    var items: [ScriptCommands<IndexingIterator<[String]>>.Item] = []
    while let item = commands.next() { items.append(item) }
    return items
  }

  @Test func commandsCarryTheirTextWordsAndFirstLine() throws {
    let found = items(["# a comment", "", "env show 'two", "lines' --json", "  deck env list"])
    #expect(found.count == 2, "comments and blank lines are no commands")
    guard case .command(let first) = try #require(found.first), case .command(let second) = try #require(found.last)
    else {
      Issue.record("expected two commands, got \(found)")
      return
    }
    #expect(first.text == "env show 'two\nlines' --json")
    #expect(first.words == ["env", "show", "two\nlines", "--json"])
    #expect(first.line == 3)
    #expect(second.words == ["deck", "env", "list"])
    #expect(second.line == 5)
  }

  @Test func aQuoteOpenAtTheEndIsReportedAtItsLineAfterTheCommandsBeforeIt() throws {
    let found = items(["env list", "", "env show", "  env show O'Brien", "env list"])
    #expect(found.count == 3)
    guard case .unclosed(let start, let line, let problem) = try #require(found.last) else {
      Issue.record("expected an unclosed quote last, got \(found)")
      return
    }
    #expect(start == 4)
    #expect(line == 4)
    #expect(problem == "unclosed ' quote opened on line 4")
  }

  @Test func aCommandRunningOnPastTheLimitEndsTheScript() throws {
    let lines = ["env list", "env show 'x"] + Array(repeating: "more", count: ShellWords.Continuation.maxLines + 5)
    let found = items(lines)
    #expect(found.count == 2, "nothing is read after the command that ran on")
    guard case .tooLong(let start, let line, _) = try #require(found.last) else {
      Issue.record("expected a command that ran on, got \(found)")
      return
    }
    #expect(start == 2)
    #expect(line == 2)
  }

  // Only a command whose words no earlier line can change is parsed ahead.
  @Test(
    arguments: [
      ("fixture search alpha --json", ["fixture", "search", "alpha", "--json"]),
      ("deck fixture search alpha", ["fixture", "search", "alpha"]),
      ("fixture search $name", nil),
      ("fixture search '$name'", nil),
      ("let id = fixture search alpha --jq '.[0].id'", nil),
      ("deck let id = env list", nil),
      ("deck", nil),
      ("---completion fixture search -- positional@0 0 0", nil),
    ] as [(String, [String]?)])
  func wordsToPrepare(line: String, expected: [String]?) throws {
    let item = try #require(items([line]).first)
    #expect(item.wordsToPrepare == expected)
  }
}
