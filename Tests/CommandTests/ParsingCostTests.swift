import ArgumentParser
import DeckApp
import DeckCore
import TestSupport
import Testing

/// A line is parsed by the deepest command it names (`LineParser.parse`). A command parsed as
/// the root of that parse names deck as its super command (`_superCommandName`): without it,
/// swift-argument-parser also parses every line as its two `--generate-completion-script`
/// pseudo-commands, a tenth of the CPU of each line of a script (bench/README.md, "Sixth pass").
@Suite("Parsing a line")
struct ParsingCostTests {
  /// Every command without subcommands, with its path.
  static func leaves(of command: any ParsableCommand.Type, path: [String] = []) -> [(String, any ParsableCommand.Type)]
  {
    let subcommands = command.configuration.subcommands
    if subcommands.isEmpty { return [(path.joined(separator: " "), command)] }
    return subcommands.flatMap { leaves(of: $0, path: path + [$0._commandName]) }
  }

  @Test func everyLeafCommandNamesDeckAsItsSuperCommand() {
    DeckRegistry.install(Registry.modules)
    let leaves = Self.leaves(of: Deck.self)
    #expect(leaves.count > 50)
    for (path, command) in leaves {
      #expect(command.configuration._superCommandName == "deck", "deck \(path)")
    }
    // Only the root's help shows a super command's name, and the root has none.
    #expect(Deck.configuration._superCommandName == nil)
  }

  /// argument-parser's own `--generate-completion-script SHELL` prints the script, before or
  /// after a command's name. (Its value was taken for a mistyped command name, exit 64.)
  @Test func theCompletionScriptRequestPrintsTheScript() async throws {
    let deck = try await InProcessDeck(features: .fixture)
    for line in [
      ["--generate-completion-script", "bash"], ["--generate-completion-script=bash"],
      ["fixture", "search", "--generate-completion-script", "bash"],
    ] {
      let result = await deck.run(line)
      #expect(result.status == 0, "\(line): \(result.stderr)")
      #expect(result.stdout.contains("complete -o filenames -F __deck_words_joined deck"), "\(line)")
    }
    let help = await deck.run(["fixture", "search", "--help"])
    #expect(help.stdout.contains("USAGE: deck fixture search"))
  }
}
