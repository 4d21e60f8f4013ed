import ArgumentParser
import DeckApp
import DeckCore
import DeckSupport
import Foundation
import Testing

/// `deck X --help` lists the exit codes X can return, for every command X of the tree: its
/// configuration builds the discussion with `HelpText.discussion(_:exits:)`.
@Suite("Exit codes in every command's help")
struct ExitCodeHelpTests {
  /// Every command of the tree under `command` (itself first), with its path.
  static func commands(of command: any ParsableCommand.Type, path: [String] = ["deck"]) -> [(
    path: String, command: any ParsableCommand.Type
  )] {
    [(path.joined(separator: " "), command)]
      + command.configuration.subcommands.flatMap { commands(of: $0, path: path + [$0._commandName]) }
  }

  /// The codes listed under "Exit codes:" in a help text, in order; nil when there is no such section.
  static func exitCodes(in help: String) -> [Int32]? {
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
    guard let heading = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "Exit codes:" }) else {
      return nil
    }
    var codes: [Int32] = []
    for line in lines[(heading + 1)...] {
      guard let word = line.split(separator: " ").first, let code = Int32(word), line.hasPrefix(" ") else { break }
      codes.append(code)
    }
    return codes
  }

  /// The help deck prints for the command: `deck … --help`.
  static func help(_ command: any ParsableCommand.Type) -> String {
    Deck.helpMessage(for: command, columns: 1000)
  }

  static let documentedCodes: Set<Int32> = [
    ExitCode.success, ExitCode.failure, ExitCode.usage, ExitCode.dataError, ExitCode.unavailable,
    ExitCode.noPermission, ExitCode.interrupted,
  ]

  @Test("every command's help ends with its exit codes: 0 first, each once, in order, from the README's table")
  func everyCommandListsItsExitCodes() {
    DeckRegistry.install(Registry.modules)
    let tree = Self.commands(of: Deck.self)
    #expect(tree.count > 80)
    for (path, command) in tree {
      guard let codes = Self.exitCodes(in: Self.help(command)) else {
        Issue.record("`\(path) --help` lists no exit codes: build its discussion with HelpText.discussion(_:exits:)")
        continue
      }
      #expect(codes.first == ExitCode.success, "\(path)")
      #expect(codes == codes.sorted() && Set(codes).count == codes.count, "\(path): \(codes)")
      #expect(Set(codes).isSubset(of: Self.documentedCodes), "\(path): \(codes)")
    }
  }

  @Test("a command group lists every code its subcommands list")
  func groupsListTheirSubcommandsCodes() {
    DeckRegistry.install(Registry.modules)
    for (path, command) in Self.commands(of: Deck.self) where !command.configuration.subcommands.isEmpty {
      let codes = Set(Self.exitCodes(in: Self.help(command)) ?? [])
      for subcommand in command.configuration.subcommands {
        let missing = Set(Self.exitCodes(in: Self.help(subcommand)) ?? []).subtracting(codes)
        #expect(missing.isEmpty, "`\(path)` does not list \(missing.sorted()), which `\(subcommand._commandName)` does")
      }
    }
  }

  @Test("a shared list's meaning gives way to the command's own for the same code")
  func ownMeaningsWin() {
    let text = HelpText.discussion(exits: SandboxOperator.exits + [.usage("a bad rule"), .failure("no such rule")])
    #expect(
      text == """
        Exit codes:
          0    ok
          1    no such rule
          64   a bad rule
          69   the sandbox cannot be reached
          77   no admin token for this sandbox, or the wrong one
        """)
  }
}
