import ArgumentParser
import DeckApp
import TestSupport
import Testing

@testable import DeckCore

@Suite("Help: paragraphs, and the global options once", .serialized, .timeLimit(.minutes(2)))
struct HelpLayoutTests {
  /// Every command of the tree, with its path.
  static func commands(of command: any ParsableCommand.Type, path: [String] = ["deck"]) -> [(
    path: String, command: any ParsableCommand.Type
  )] {
    [(path.joined(separator: " "), command)]
      + command.configuration.subcommands.flatMap { commands(of: $0, path: path + [$0._commandName]) }
  }

  @Test("every discussion is whole paragraphs: a line breaks only before a list, code or exit-code line")
  func discussionsAreReflowed() {
    for (path, command) in Self.commands(of: Deck.self) {
      for paragraph in command.configuration.discussion.components(separatedBy: "\n\n") {
        let lines = paragraph.components(separatedBy: "\n")
        for line in lines.dropFirst() {
          let kept = ["  ", "- ", "* ", "$ "].contains { line.hasPrefix($0) }
          #expect(kept, "\(path): a sentence breaks before \"\(line)\"")
        }
      }
    }
  }

  @Test("a subcommand's help names the global options once and describes only its own; deck --help describes them")
  func globalOptionsOnce() async throws {
    let deck = try await InProcessDeck(features: .fixture)
    let search = await deck.run(["fixture", "search", "--help"])
    #expect(search.status == 0)
    #expect(search.stdout.contains("USAGE: deck fixture search [global options] "), "\(search.stdout)")
    #expect(search.stdout.contains("--limit"), "its own option stays")
    #expect(!search.stdout.contains("spreadsheets"), "the global options are not described again")
    #expect(search.stdout.contains("GLOBAL OPTIONS:\n  --env, --json, --format, --jq, --csv-raw, --trace, --timeout\n"))
    let wide = search.stdout.split(separator: "\n").filter { $0.count > 80 }
    #expect(wide.isEmpty, "help lines over 80 columns: \(wide)")
    let root = await deck.run(["--help"])
    #expect(root.stdout.contains("spreadsheets"), "deck --help describes them")
    #expect(!root.stdout.contains("GLOBAL OPTIONS:"))
    #expect(HelpText.condensingGlobalOptions("deck 1.0") == "deck 1.0")
  }

  /// argument-parser shortens the usage of a command with many options to `<options>`
  /// (`kiosk run`, `workspace onboard`, `sandbox fault add`): their help too names the global
  /// options once.
  @Test("no command's help describes the global options again, whatever its usage line")
  func noCommandDescribesTheGlobalOptions() async throws {
    let deck = try await InProcessDeck()
    let globals = Set(HelpText.globalNames)
    for (path, _) in Self.commands(of: Deck.self).dropFirst() {
      let words = Array(path.split(separator: " ").dropFirst().map(String.init))
      let help = await deck.run(words + ["--help"])
      #expect(help.status == 0, "\(path) --help: \(help.stderr)")
      // An option's entry: "  --env <env>   The environment …".
      let described = help.stdout.split(separator: "\n").filter { line in
        line.hasPrefix("  -") && globals.contains(String(line.dropFirst(2).prefix { $0 != " " }))
      }
      #expect(described.isEmpty, "\(path) --help describes global options: \(described)")
      #expect(!help.stdout.contains("spreadsheets"), "\(path) --help describes --csv-raw")
    }
  }
}
