import DeckSupport
import Foundation
import Testing

@testable import DeckQA

/// Steps with `keys` (docs/QA.md, "Keys on a terminal"): how they are written, and a real
/// program driven on a real pseudo-terminal.
@Suite struct TerminalStepTests {
  static func steps(_ step: String) throws -> [Step] {
    let text = """
      module: brokerage
      scenarios:
        - id: k
          tags: [readonly]
          steps:
      \(step)
      """
    return try #require(try ScenarioParser.scenarios(text, file: "keys.yaml").first).steps
  }

  @Test func keysReadAsWritten() throws {
    let step = try #require(
      try Self.steps(
        """
              - run: workspace onboard
                keys:
                  - {wait: "Industry: ", send: "Real Estate\\r"}
                  - {send: "\\t\\t"}
                  - wait: Submit?
                expect: {stdout: Onboarding complete.}
        """
      ).first)
    #expect(step.keys.map(\.wait) == ["Industry: ", nil, "Submit?"])
    #expect(step.keys.map(\.send) == ["Real Estate\r", "\t\t", nil])
    #expect(step.keys.map(\.line) == [8, 9, 10])
  }

  @Test(arguments: [
    ("keys: []", "keys: expected a list"),
    ("keys: [{}]", "expected wait, send or both"),
    ("keys: [{wait: ''}]", "the text to wait for is empty"),
    ("keys: [{type: x}]", "type"),
    ("keys: [{send: x}]\n          stdin: y", "give it in keys, not stdin"),
    ("keys: [{send: x}]\n          expect: {stderr: oops}", "stdout and stderr are one screen"),
  ])
  func aWrongKeysListNamesTheProblem(_ keys: String, _ problem: String) throws {
    let error = try #require(throws: DeckError.self) {
      try Self.steps("        - run: workspace onboard\n          \(keys)")
    }
    #expect(error.exitCode == 64)
    #expect(error.message.hasPrefix("keys.yaml:"), "\(error.message)")
    #expect(error.message.contains(problem), "\(error.message)")
  }

  @Test func theScreenIsTextWithoutEscapes() {
    let bytes = Array("\u{1B}[1mName:\u{1B}[0m \r\nAda\u{07}\u{1B}]0;title\u{07} done\u{1B}(B é".utf8)
    #expect(TerminalScreen.text(bytes) == "Name: \nAda done é")
    // A read that ends inside an escape sequence or a character leaves it out until the rest comes.
    #expect(TerminalScreen.text(Array("ok\u{1B}[3".utf8)) == "ok")
    #expect(TerminalScreen.text(Array("ok".utf8) + [0xC3]) == "ok")
    #expect(TerminalScreen.text(Array("ok".utf8) + [0xC3, 0xA9]) == "oké")
  }

  static let program = "/bin/sh"
  /// A prompt that reads a line from its terminal, as the wizard's prompts do.
  static let prompting = ["-c", "test -t 0 && test -t 1 || exit 9; printf 'Name: '; read name; echo \"hello $name\""]

  /// Bounds a test that fails; a passing one returns as soon as the program answers. Long
  /// because this suite shares two cores with every other unit test: on CI, with 20 s, this
  /// test's task was resumed past its deadline right after it typed, before the program had
  /// run, and the step was found stuck.
  static let failingTestBound: Double = 300

  @Test func aProgramIsDrivenOnItsOwnTerminal() async throws {
    let outcome = try await TerminalStep.run(
      Self.program, arguments: Self.prompting, environment: ["PATH": "/usr/bin:/bin"],
      keys: [Step.KeyExchange(wait: "Name: ", send: "Ada\r"), Step.KeyExchange(wait: "hello Ada")],
      timeout: Self.failingTestBound)
    guard case .exited(let code, let screen) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(code == 0)
    #expect(screen == "Name: Ada\nhello Ada\n", "\(screen)")
  }

  @Test func aTextTheScreenNeverShowsIsNamedWithTheScreen() async throws {
    let stuck = try await TerminalStep.run(
      Self.program, arguments: Self.prompting, environment: ["PATH": "/usr/bin:/bin"],
      keys: [Step.KeyExchange(wait: "Name: "), Step.KeyExchange(wait: "Password: ", send: "x\r")], timeout: 3)
    #expect(stuck == .stuck(waiting: "Password: ", exit: nil, screen: "Name: "))

    let exited = try await TerminalStep.run(
      Self.program, arguments: ["-c", "echo bye"], environment: [:],
      keys: [Step.KeyExchange(wait: "Name: ")], timeout: Self.failingTestBound)
    #expect(exited == .stuck(waiting: "Name: ", exit: 0, screen: "bye\n"))
  }
}
