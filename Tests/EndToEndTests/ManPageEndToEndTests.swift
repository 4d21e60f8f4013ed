import Foundation
import TestSupport
import Testing

/// docs/man as `man` shows it: every page, rendered by man-db and groff in a UTF-8 locale, holds
/// the text of its command's `--help` (issue 45: generate-manual dropped every character that
/// is not ASCII, so `0.0–5.0` read `0.05.0` and doctor's page lost ✓ and ✗).
@Suite("Man pages", .endToEndTimeLimit)
struct ManPageEndToEndTests {
  static let man = "/usr/bin/man"
  static var canRender: Bool {
    FileManager.default.isExecutableFile(atPath: man) && FileManager.default.isExecutableFile(atPath: "/usr/bin/groff")
  }

  static let pages: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("docs/man")

  /// Runs of white space as one space (man fills and indents; --help wraps differently).
  static func normalised(_ text: some StringProtocol) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  /// What a command's man page must hold of its `--help` (printed unwrapped): the abstract,
  /// each line of the discussion, and each argument's and option's help. Not the usage, nor
  /// the GLOBAL OPTIONS pointer and SUBCOMMANDS list (a page describes every option, and names
  /// its subcommands' pages under SEE ALSO), nor argument-parser's `(default: …)` and
  /// `(values: …)` notes, which generate-manual does not print.
  static func helpTexts(_ help: String) -> [String] {
    var texts: [String] = []
    var section = ""
    for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("OVERVIEW: ") {
        texts.append(String(line.dropFirst("OVERVIEW: ".count)))
        section = "DISCUSSION"
        continue
      }
      if line.hasPrefix("USAGE: ") {
        section = "USAGE"
        continue
      }
      if !line.hasPrefix(" "), line.hasSuffix(":"), line == line.uppercased() {
        section = String(line)
        continue
      }
      var text = line.drop { $0 == " " }
      if section == "ARGUMENTS:" || section == "OPTIONS:" {
        // "  --name <value>     its help": the names, two spaces or more, the help.
        if line.hasPrefix("  -") || line.hasPrefix("  <") {
          guard let gap = text.range(of: "  ") else { continue }
          text = text[gap.upperBound...].drop { $0 == " " }
        }
      } else if section != "DISCUSSION" {
        continue
      }
      let kept = String(text).replacing(/\s*\((default|values): [^)]*\)$/, with: "")
      if !normalised(kept).isEmpty { texts.append(normalised(kept)) }
    }
    return texts
  }

  @Test(.enabled(if: canRender, "man (man-db) and groff are not installed: scripts/setup installs them"))
  func everyPageHoldsItsCommandsHelpAsManShowsIt() async throws {
    let deck = try DeckCLI()
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.pages.path).filter { $0.hasSuffix(".1") }
      .sorted()
    #expect(names.count > 50, "\(names)")
    let (home, deckEnvironment) = (deck.home, deck.environment)
    // Expectations are recorded here, in the test's task: a thread of its own has no test.
    let problems = try await offThePool {
      var problems: [String] = []
      // `deck help` is argument-parser's: `deck help --help` prints the root's help.
      for name in names where name != "deck.help.1" {
        let page = Self.pages.appendingPathComponent(name).path
        // Wide enough that nothing wraps, so nothing is hyphenated; no pager, as on a pipe.
        let environment = ["LC_ALL": "C.UTF-8", "MANWIDTH": "10000", "PATH": "/usr/bin:/bin", "HOME": home]
        let rendered = try DeckCLI.execute(Self.man, ["-l", page], stdin: nil, environment: environment, in: home)
        if rendered.status != 0 || !rendered.stderr.isEmpty { problems.append("man -l \(name): \(rendered.stderr)") }
        let shown = Self.normalised(rendered.stdout)
        let command = Array(name.dropLast(2).split(separator: ".").dropFirst().map(String.init))
        let help = try DeckCLI.execute(
          DeckCLI.binary, command + ["--help"], stdin: nil,
          environment: deckEnvironment.merging(["COLUMNS": "10000"]) { $1 },
          in: home)
        if help.status != 0 { problems.append("deck \(command) --help: \(help.stderr)") }
        for text in Self.helpTexts(help.stdout) where !shown.contains(text) {
          problems.append("\(name) lacks \"\(text)\" of deck \(command.joined(separator: " ")) --help")
        }
      }
      return problems
    }
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    withExtendedLifetime(deck) {}
  }

  @Test func theHelpTextsAreTheAbstractDiscussionAndOptionHelp() {
    let help = """
      OVERVIEW: Change fields … of a category.

      Keys are the JSON names.
        gpa (number): 0.0–5.0

      USAGE: deck prefs set [global options] <category>

      ARGUMENTS:
        <category>              The category. (values: player, school)

      OPTIONS:
        --poll-interval <seconds>
                                Seconds between polls. (default: 7.0)
        -h, --help              Show help information.

      GLOBAL OPTIONS:
        --env, --json
                                (deck --help describes them)
      """
    #expect(
      Self.helpTexts(help) == [
        "Change fields … of a category.", "Keys are the JSON names.", "gpa (number): 0.0–5.0", "The category.",
        "Seconds between polls.", "Show help information.",
      ])
  }
}
