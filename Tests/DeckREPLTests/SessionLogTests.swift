import DeckSupport
import Foundation
import Testing

@testable import DeckREPL

/// `history --export`: which lines a replay gets, and the script's header.
@Suite("REPL session export")
struct SessionLogTests {
  func entry(_ line: String, _ code: Int32 = 0, environment: String = "local") -> SessionLog.Entry {
    guard case .words(var words) = ShellWords.split(line) else { fatalError("incomplete test line: \(line)") }
    if words.first == "deck" { words.removeFirst() }
    return .init(line: line, words: words, environment: environment, exitCode: code)
  }

  @Test func failedLinesAndSecretsAreLeftOut() {
    var log = SessionLog()
    log.record(entry("fixture search alpha --limit 1"))
    log.record(entry("fixture search '  '", 64))
    log.record(entry("auth login --email a@b.test --password hunter2"))
    log.record(entry("deck env show --json"))
    log.record(entry("auth login --with-token"))
    log.record(entry("sandbox status", 130))
    log.record(entry("fixture search \"two\nlines\""))
    let date = Date(timeIntervalSince1970: 1_800_000_000)
    let script = log.script(date: date) { _ in true }
    #expect(
      script == """
        # deck REPL session, exported 2027-01-15T08:00:00Z: 3 commands
        # environment: local
        # replay: deck run FILE --env local
        fixture search alpha --limit 1
        deck env show --json
        fixture search "two
        lines"

        """)
  }

  @Test func aLineFromAnotherEnvironmentNamesIt() {
    var log = SessionLog()
    log.record(entry("env list", environment: "sandbox"))
    log.record(entry("fixture search \"A/B\" -- x", environment: "local"))
    log.record(entry("completion bash", environment: "local"))
    log.record(entry("auth status --env dev", environment: "local"))
    let script = log.script(date: Date()) { words in words.first != "completion" }
    let lines = script.split(separator: "\n").filter { !$0.hasPrefix("#") }
    #expect(
      lines == [
        "env list", "fixture search A/B --env local -- x", "completion bash", "auth status --env dev",
      ])
    #expect(script.contains("# environment: sandbox\n"))
  }

  @Test func anEmptySessionStillNamesItsEnvironment() {
    let script = SessionLog(entries: [entry("oops", 64, environment: "dev")]).script(date: Date()) { _ in true }
    #expect(script.contains(": 0 commands\n# environment: dev\n"))
  }
}
