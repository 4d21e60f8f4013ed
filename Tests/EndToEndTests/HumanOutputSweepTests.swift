import Foundation
import TestSupport
import Testing

/// What a person sees on a real terminal, for the whole command tree: every read-only command
/// in its human format, and every command's `--help`, on a pseudo-terminal of 80×24 and of
/// 40×24, against a served sandbox with a signed-in user. The tree comes from the registry
/// (`CommandTree`), so a new command joins the sweep, or the sweep fails until it is
/// classified below as read-only (with its arguments) or as one the sweep does not run.
@Suite("Human output on a terminal, every command", .endToEndTimeLimit)
struct HumanOutputSweepTests {
  static let email = "athlete@sandbox.test"

  /// Read-only commands, each with the argument lists it runs with.
  static let readOnly: [String: [[String]]] = [
    "env list": [[]], "env show": [[]], "auth status": [[]], "auth token": [[]],
    "brokerage search": [["keller"], ["zzzz-no-such-brokerage"]],
    "workspace access": [[]], "workspace route": [[]], "kiosk status": [[]],
    "mbti questions": [[]], "mbti result": [[]], "mbti events": [[]], "mbti user-id": [[]],
    "prefs get": [["player"], ["school"], ["notifications"], ["dashboard"], ["location"]],
    "prefs history": [["player"]], "prefs school list": [[]], "prefs export": [[]],
    "sandbox status": [[]], "sandbox outbox": [[]], "sandbox fault list": [[]],
    "sandbox inspect workspace": [[email]], "sandbox inspect events": [[]], "sandbox inspect prefs": [[email]],
    "plugins": [[]], "doctor": [[]], "contract list": [[]], "qa list": [[]], "qa coverage": [[]],
    "qa show": [["prefs-5.edge.3"]],
  ]

  /// Read-only commands whose output is a document for another program (a token, JSON), where
  /// a line is as long as its data.
  static let documents: Set<String> = ["auth token", "prefs export", "qa show"]

  /// Commands the sweep does not run, and why.
  static let notRun: [String: String] = Dictionary(
    uniqueKeysWithValues: [
      "env use", "env add", "env set", "env remove", "auth signup", "auth login", "auth switch", "auth logout",
      "workspace onboard", "workspace invite validate", "workspace invite accept", "workspace subscribe",
      "kiosk pair", "kiosk next", "kiosk rate", "kiosk approve", "kiosk decline", "kiosk done", "kiosk cancel",
      "kiosk unpair", "mbti submit", "prefs set", "prefs reset", "prefs delete", "prefs school template",
      "prefs school add", "prefs school move", "prefs school remove", "prefs dashboard show", "prefs dashboard hide",
      "prefs location set", "prefs import", "prefs photo set", "prefs photo get", "prefs photo remove",
      "sandbox stop", "sandbox seed", "sandbox reset", "sandbox delay", "sandbox trigger subscription",
      "sandbox trigger invite-expiry", "sandbox trigger purchase", "sandbox trigger store", "sandbox fault add",
      "sandbox fault clear",
      "contract fixtures", "qa export",
    ].map { ($0, "changes state") }
      + [
        "kiosk run", "mbti quiz", "prefs edit", "repl", "run", "sandbox serve",
      ].map { ($0, "interactive or long-running: its own terminal tests cover it") }
      + [
        ("sandbox inspect session", "needs a kiosk session's id"), ("sandbox inspect store", "needs a paired store"),
        ("completion", "prints a shell script"),
        ("api", "prints the service's answer as it came: its end-to-end tests cover it"),
        ("contract check", "its end-to-end tests cover it"),
        ("sandbox logs", "its end-to-end tests cover it (SandboxLogsEndToEndTests)"),
        ("qa run", "runs the suite: its end-to-end tests cover it"),
      ])

  /// What is wrong with `output` as a person sees it on a terminal `columns` wide.
  static func problems(in raw: String, columns: Int, wrapsOnPurpose: Bool) -> [String] {
    var found: [String] = []
    let visible = PseudoTerminal.stripEscapes(raw)
    if let remnant = visible.range(of: #"\[[0-9;]*m"#, options: .regularExpression) {
      found.append("a colour code without its ESC: `\(visible[remnant])`")
    }
    for phrase in [
      "Expected to decode", "DecodingError", "keyNotFound", "typeMismatch", "valueNotFound", "dataCorrupted",
      "CodingKeys", "Swift.", "Optional(", "Foundation.", "NSError", "The data couldn’t be read",
    ] where visible.contains(phrase) {
      found.append("a Swift type name or decoder phrase: `\(phrase)`")
    }
    let lines = visible.split(separator: "\n", omittingEmptySubsequences: false)
    for line in lines {
      if let doubled = line.range(
        of: #"(?<![.])\.\.(?![./\w<])|[,;:!?]{2}|[!?]\.|\.[,;!?]"#, options: .regularExpression)
      {
        found.append("doubled punctuation `\(line[doubled])` in: \(line)")
      }
      // A line wider than the terminal, unless one word alone is wider (a URL, a token).
      let width = line.unicodeScalars.filter { !$0.properties.isGraphemeExtend && $0.value != 0xFE0F }.count
      let longestWord = line.split(separator: " ").map(\.count).max() ?? 0
      if width > columns, !wrapsOnPurpose, longestWord <= columns {
        found.append("a line of \(width) columns on a terminal of \(columns): \(line)")
      }
    }
    return found
  }

  /// Runs `deck ARGUMENTS` on a terminal of `columns`×24 and returns what it wrote.
  static func screen(_ deck: DeckCLI, _ arguments: [String], columns: UInt16) throws -> (status: Int32, raw: String) {
    let terminal = try PseudoTerminal(
      deck: deck, arguments, environment: ["TERM": "xterm-256color"], columns: columns, rows: 24)
    let status = try terminal.waitForExit(timeout: 60)
    return (status, terminal.raw)
  }

  @Test("every command is classified: read-only (swept) or not run, with a reason")
  func everyCommandIsClassified() throws {
    let leaves = CommandTree.leaves.map { $0.joined(separator: " ") }
    #expect(leaves.count > 60)
    for leaf in leaves where Self.readOnly[leaf] == nil && Self.notRun[leaf] == nil {
      Issue.record("`deck \(leaf)` is new to the sweep: add it to readOnly (with arguments) or to notRun (with why)")
    }
    for name in Array(Self.readOnly.keys) + Array(Self.notRun.keys) where !leaves.contains(name) {
      Issue.record("`deck \(name)` is no longer a command: remove it from the sweep's lists")
    }
  }

  @Test("read-only commands at 80×24 and 40×24: no escape remnants, no overlong lines, no type names")
  func readOnlyCommandsReadWell() async throws {
    let found = try await offThePool {
      let (server, deck) = try DeckCLI.signedIn(Self.email)
      defer { _ = server }
      var found: [String] = []
      for (path, argumentLists) in Self.readOnly.sorted(by: { $0.key < $1.key }) {
        for arguments in argumentLists {
          let words = path.split(separator: " ").map(String.init) + arguments
          for columns: UInt16 in [80, 40] {
            let (status, raw) = try Self.screen(deck, words, columns: columns)
            let command = "deck \(words.joined(separator: " ")) at \(columns) columns"
            if status == 70 || status >= 128 { found.append("\(command) exited \(status):\n\(raw)") }
            found += Self.problems(in: raw, columns: Int(columns), wrapsOnPurpose: Self.documents.contains(path))
              .map { "\(command): \($0)" }
          }
        }
      }
      return found
    }
    for problem in found { Issue.record(Comment(rawValue: problem)) }
  }

  @Test("every command's --help at 80×24 and 40×24 reads well")
  func everyHelpReadsWell() async throws {
    let found = try await offThePool {
      let deck = try DeckCLI()
      var found: [String] = []
      for path in CommandTree.commands {
        let words = path + ["--help"]
        for columns: UInt16 in [80, 40] {
          let (status, raw) = try Self.screen(deck, words, columns: columns)
          let command = "deck \(words.joined(separator: " ")) at \(columns) columns"
          if status != 0 { found.append("\(command) exited \(status)") }
          found += Self.problems(in: raw, columns: Int(columns), wrapsOnPurpose: false).map { "\(command): \($0)" }
        }
      }
      return found
    }
    for problem in found { Issue.record(Comment(rawValue: problem)) }
  }

  @Test("the sweep's checks find what they look for")
  func checksFindTheirDefects() {
    #expect(!Self.problems(in: "[1mSummary[0m", columns: 80, wrapsOnPurpose: false).isEmpty)
    #expect(Self.problems(in: "\u{1B}[1mSummary\u{1B}[0m", columns: 80, wrapsOnPurpose: false).isEmpty)
    #expect(
      !Self.problems(in: "Expected to decode String but found number", columns: 80, wrapsOnPurpose: false).isEmpty)
    #expect(!Self.problems(in: "Sent it..", columns: 80, wrapsOnPurpose: false).isEmpty)
    #expect(Self.problems(in: "Loading... done. Path ../x and 1..5", columns: 80, wrapsOnPurpose: false).isEmpty)
    #expect(!Self.problems(in: String(repeating: "word ", count: 10), columns: 40, wrapsOnPurpose: false).isEmpty)
    #expect(
      Self.problems(in: "url: https://" + String(repeating: "x", count: 60), columns: 40, wrapsOnPurpose: false).isEmpty
    )
    #expect(Self.problems(in: "✓ coaches ✗ parents", columns: 20, wrapsOnPurpose: false).isEmpty)
  }
}
