import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `deck prefs edit` on a real terminal: the editor (a script standing in for vi) gets the
/// terminal, a file with problems opens again with them at the top, and the REPL goes on after.
@Suite("deck prefs edit on a terminal", .endToEndTimeLimit)
struct PrefsEditEndToEndTests {
  /// A signed-in deck whose EDITOR records what it was given and whether it had the terminal,
  /// then changes the reminder days: to 500 (out of range) the first time, to 21 the second.
  func setUp() throws -> (SandboxProcess, DeckCLI, directory: String, environment: [String: String]) {
    let (server, deck) = try DeckCLI.signedIn()
    let directory = deck.home + "/editor"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    var environment = deck.environment
    environment["TERM"] = "xterm"
    environment["INPUTRC"] = "/dev/null"
    environment["EDITOR"] = try EditorScript.write(
      in: directory,
      [
        "s/^followUpReminderDays: 7 /followUpReminderDays: 500 /",
        "s/^followUpReminderDays: 500 /followUpReminderDays: 21 /",
      ])
    return (server, deck, directory, environment)
  }

  @Test("in the REPL: the editor gets the terminal, a bad value reopens the file with the problem, then it is saved")
  func editReopensOnErrorInTheREPL() throws {
    let (server, deck, directory, environment) = try setUp()
    defer { withExtendedLifetime((server, deck)) {} }  // the server, and deck's home with its token
    let prompt = "deck (local:athlete@sandbox.test)> "
    let repl = try PseudoTerminal(arguments: [], environment: environment)
    try repl.expect(prompt)

    // Tab completes keys as key= and then their values.
    repl.send("prefs set notifications foll\t")
    try repl.expect("followUpReminderDays=")
    repl.send("\u{15}prefs set player ba\t")
    try repl.expect("bats=")
    repl.send("\t\t")
    try repl.expect("bats=S")
    repl.send("\u{15}prefs school template clo\t")
    try repl.expect("close-to-home ")
    repl.send("\u{15}")

    repl.send("prefs edit notifications\r")
    try repl.expect("followUpReminderDays: 7 → 21")
    try repl.expect(prompt)
    let first = try String(contentsOfFile: directory + "/seen-1.yaml", encoding: .utf8)
    #expect(first.contains("# Editing the notifications of athlete@sandbox.test in environment local."))
    #expect(first.contains("followUpReminderDays: 7"))
    #expect(first.contains("# Days between follow-ups: 1–90 (no effect while enableFollowUpReminders is off)"))
    let second = try String(contentsOfFile: directory + "/seen-2.yaml", encoding: .utf8)
    #expect(second.contains("# The file had problems, so nothing was sent."))
    #expect(second.contains("#   followUpReminderDays: 500 is out of range; allowed 1–90"))
    #expect(second.contains("followUpReminderDays: 500 "), "the user's change is kept")
    #expect(FileManager.default.fileExists(atPath: directory + "/terminal-1"), "the editor had the terminal")
    #expect(FileManager.default.fileExists(atPath: directory + "/terminal-2"))

    // The REPL goes on, and the change is stored.
    repl.send("prefs get notifications --jq .data.followUpReminderDays\r")
    try repl.expect("21")
    try repl.expect(prompt)
    repl.send("exit\r")
    #expect(try repl.waitForExit() == 0)
  }

  @Test("one-shot on a terminal, the same reopen-on-error path")
  func editReopensOnErrorOneShot() throws {
    let (server, deck, directory, setUpEnvironment) = try setUp()
    defer { withExtendedLifetime(server) {} }
    var environment = setUpEnvironment
    environment["VISUAL"] = environment.removeValue(forKey: "EDITOR")
    let edit = try PseudoTerminal(arguments: ["prefs", "edit", "notifications"], environment: environment)
    try edit.expect("followUpReminderDays: 7 → 21")
    #expect(try edit.waitForExit() == 0)
    #expect(try String(contentsOfFile: directory + "/count", encoding: .utf8) == "2\n")
    let stored = try deck.run(["prefs", "get", "notifications", "--jq", ".data.followUpReminderDays"])
    #expect(stored.stdout == "21\n")
  }
}
