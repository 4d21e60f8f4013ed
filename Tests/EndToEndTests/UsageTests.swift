import Foundation
import TestSupport
import Testing

@Suite("Usage errors that help", .endToEndTimeLimit)
struct UsageTests {
  @Test("a mistyped subcommand names the word, suggests the nearest command and exits 64")
  func mistypedSubcommand() throws {
    let deck = try DeckCLI()
    let typo = try deck.run(["brokerage", "serch", "keller"])
    #expect(typo.status == 64)
    #expect(typo.stderr.contains("Unknown command 'serch' for 'deck brokerage'"), "\(typo.stderr)")
    #expect(typo.stderr.contains("Did you mean 'search'?"))
    #expect(typo.stdout.isEmpty)
    // Options before the command, and their values, are not taken for commands.
    let top = try deck.run(["--env", "sandbox", "brokrage", "search", "x"])
    #expect(top.status == 64)
    #expect(top.stderr.contains("Did you mean 'brokerage'?"), "\(top.stderr)")
    // An alias counts, and the suggestion is the command's name.
    let alias = try deck.run(["env", "lst"])
    #expect(alias.stderr.contains("Did you mean 'list'?"), "\(alias.stderr)")
  }

  @Test("help for a command that does not exist is an error, not the root's help")
  func helpForNoSuchCommand() throws {
    let deck = try DeckCLI()
    let help = try deck.run(["nosuch", "--help"])
    #expect(help.status == 64)
    #expect(help.stderr.contains("Unknown command 'nosuch' for 'deck'"), "\(help.stderr)")
    #expect(!help.stdout.contains("OVERVIEW"))
    let nested = try deck.run(["help", "brokerage", "serch"])
    #expect(nested.status == 64)
    #expect(nested.stderr.contains("Did you mean 'search'?"), "\(nested.stderr)")
    // Real help still works and exits 0.
    let real = try deck.run(["brokerage", "search", "--help"])
    #expect(real.status == 0)
    #expect(real.stdout.contains("USAGE: deck brokerage search"))
  }

  @Test("a mistyped option still gets the argument parser's own suggestion")
  func mistypedOption() throws {
    let deck = try DeckCLI()
    let result = try deck.run(["brokerage", "search", "--limt", "3", "x"])
    #expect(result.status == 64)
    #expect(result.stderr.contains("Did you mean '--limit'?"), "\(result.stderr)")
  }
}

@Suite("Help texts read as paragraphs", .endToEndTimeLimit)
struct HelpTextEndToEndTests {
  /// Lines of the discussion (before USAGE) that end a paragraph early: a short line followed
  /// by a non-blank line of the same paragraph, which is what re-wrapping hard-wrapped text gives.
  func raggedLines(_ help: String, width: Int) -> [String] {
    let lines = help.components(separatedBy: "\n").prefix { !$0.hasPrefix("USAGE:") }.map { String($0) }
    var ragged: [String] = []
    for (index, line) in lines.enumerated().dropLast() {
      let next = lines[index + 1]
      guard !line.isEmpty, !next.isEmpty, !next.hasPrefix(" "), !next.hasPrefix("- "), !line.hasPrefix(" ") else {
        continue
      }
      if line.count < width / 2 { ragged.append(line) }
    }
    return ragged
  }

  @Test(arguments: [["kiosk", "run"], ["workspace", "onboard"], ["workspace", "subscribe"], ["kiosk"]])
  func paragraphsWrapAtTheTerminalWidth(_ command: [String]) throws {
    var deck = try DeckCLI()
    deck.environment["COLUMNS"] = "80"
    let help = try deck.run(command + ["--help"])
    #expect(help.status == 0)
    #expect(raggedLines(help.stdout, width: 80) == [], "\(help.stdout)")
    #expect(help.stdout.contains("Exit codes:\n  0    ok\n"))
  }
}
