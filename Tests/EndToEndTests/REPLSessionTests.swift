import Foundation
import TestSupport
import Testing

/// The REPL's `history --export` and `edit`, on a pseudo-terminal against a served sandbox.
@Suite("REPL: export and edit", .endToEndTimeLimit)
struct REPLSessionTests {
  let prompt = "deck (local)> "

  /// Runs a line and returns what it printed (the echoed line and the next prompt left out).
  func run(_ repl: PseudoTerminal, _ line: String) throws -> String {
    repl.send(line + "\r")
    let text = try repl.expect(prompt)
    let afterEcho = text.firstIndex(of: "\n").map { text.index(after: $0) } ?? text.endIndex
    return String(text[afterEcho...].dropLast(prompt.count))
  }

  @Test func anExportedSessionReplaysWithTheSameOutput() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let repl = try REPLTests().start(deck)
    var session = ""
    session += try run(repl, "brokerage search keller --limit 2")
    #expect(session.contains("Keller Williams"))
    _ = try run(repl, "brokerage search '   '")  // fails: left out
    _ = try run(repl, "auth login --email owner@sandbox.test --password sandbox")  // a secret: left out
    session += try run(repl, "env list")
    session += try run(repl, "deck brokerage search \"re/max\" --limit 1")
    _ = try run(repl, "history 2")  // a built-in: left out
    let wrote = try run(repl, "history --export ~/session.deck")
    let path = deck.home + "/session.deck"
    #expect(wrote.contains("Wrote 3 commands to \(path)"), "\(wrote)")
    repl.send("exit\r")
    #expect(try repl.waitForExit() == 0)

    let script = try String(contentsOfFile: path, encoding: .utf8)
    let lines = script.split(separator: "\n")
    #expect(lines.count == 6, "\(script)")
    #expect(lines[0].hasPrefix("# deck REPL session, exported "))
    #expect(lines[1] == "# environment: local")
    #expect(
      Array(lines.dropFirst(3)) == [
        "brokerage search keller --limit 2", "env list", "deck brokerage search \"re/max\" --limit 1",
      ])
    #expect(!script.contains("sandbox\n--password") && !script.contains("--password"))
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

    let replay = try deck.run(["run", path])
    #expect(replay.status == 0, "\(replay.stderr)")
    #expect(replay.stdout == session)
  }

  /// An EDITOR that records what it was given, then saves what the test asks for: the lines
  /// in ~/next-buffer, or (when there is none) leaves the file as it was.
  func scriptedEditor(_ deck: DeckCLI) throws -> String {
    let path = deck.home + "/editor"
    try """
    #!/bin/sh
    cp "$1" "$HOME/given-buffer"
    stat -c %a "$1" > "$HOME/given-mode"
    if [ -f "$HOME/next-buffer" ]; then cat "$HOME/next-buffer" > "$1"; rm "$HOME/next-buffer"; fi
    """.write(toFile: path, atomically: true, encoding: .utf8)
    #expect(chmod(path, 0o755) == 0)
    return path
  }

  @Test func editRunsTheSavedLinesAndAnUnchangedBufferRunsNothing() throws {
    let server = try SandboxProcess()
    var deck = try DeckCLI(server: server)
    deck.environment["EDITOR"] = try scriptedEditor(deck)
    deck.environment["TMPDIR"] = deck.home + "/tmp"
    try FileManager.default.createDirectory(atPath: deck.home + "/tmp", withIntermediateDirectories: true)
    let repl = try REPLTests().start(deck)
    _ = try run(repl, "brokerage search keller --limit 1")

    try "brokerage search compass --limit 1\n# a comment\nbrokerage search \"coldwell banker\" \\\n  --limit 1\n".write(
      toFile: deck.home + "/next-buffer", atomically: true, encoding: .utf8)
    let edited = try run(repl, "edit")
    #expect(edited.contains("Compass"), "\(edited)")
    #expect(edited.contains("Coldwell Banker"), "\(edited)")
    #expect(
      try String(contentsOfFile: deck.home + "/given-buffer", encoding: .utf8) == "brokerage search keller --limit 1\n")
    #expect(try String(contentsOfFile: deck.home + "/given-mode", encoding: .utf8) == "600\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: deck.home + "/tmp").isEmpty, "the buffer is removed")

    // No next-buffer: the editor saves the line unchanged.
    let unchanged = try run(repl, "edit")
    #expect(unchanged.contains("Nothing to run: the line is unchanged."), "\(unchanged)")
    #expect(!unchanged.contains("Coldwell"))
    #expect(
      try String(contentsOfFile: deck.home + "/given-buffer", encoding: .utf8)
        == "brokerage search \"coldwell banker\" \\\n  --limit 1\n", "the last line that ran, edit skipped")

    try "\n\n".write(toFile: deck.home + "/next-buffer", atomically: true, encoding: .utf8)
    #expect(try run(repl, "edit").contains("Nothing to run: the buffer is empty."))

    // The lines that ran are history, and the prompt still works.
    let history = try run(repl, "history 4")
    #expect(history.contains("brokerage search compass --limit 1"), "\(history)")
    #expect(try run(repl, "brokerage search \"re/max\" --limit 1").contains("RE/MAX"))
    repl.send("exit\r")
    #expect(try repl.waitForExit() == 0)
  }

  @Test func theEditorGetsTheTerminalAndCtrlCInItLeavesDeckRunning() throws {
    let server = try SandboxProcess()
    var deck = try DeckCLI(server: server)
    let editor = deck.home + "/editor"
    try """
    #!/bin/sh
    [ -t 0 ] && [ -t 1 ] && echo "editor has the terminal"
    IFS= read -r line
    printf '%s\\n' "$line" > "$1"
    """.write(toFile: editor, atomically: true, encoding: .utf8)
    #expect(chmod(editor, 0o755) == 0)
    deck.environment["VISUAL"] = editor
    deck.environment["EDITOR"] = "/bin/false"
    let repl = try REPLTests().start(deck)

    repl.send("edit\r")
    try repl.expect("editor has the terminal")
    repl.send("brokerage search compass --limit 1\r")  // typed into the editor, not into readline
    try repl.expect("\nCompass  ")
    try repl.expect(prompt)

    repl.send("edit\r")
    try repl.expect("editor has the terminal")
    repl.send("\u{03}")
    try repl.expect("was stopped by signal 2.")
    try repl.expect("Nothing was run.")
    try repl.expect(prompt)
    repl.send("brok\t")  // readline is back in charge of the terminal
    try repl.expect("brokerage ")
    repl.send("search \"re/max\" --limit 1\r")
    try repl.expect("RE/MAX")
    try repl.expect(prompt)
    repl.send("ed\t")  // the new built-ins complete
    try repl.expect("edit ")
    repl.send("\u{15}history --ex\t")
    try repl.expect("history --export ")
    repl.send("\u{15}exit\r")
    #expect(try repl.waitForExit() == 0)
  }

  /// Issue 45: in a new session, `edit` opened the `exit` that ended the one before (the last
  /// history line). It opens this session's last command, or else the last command of an
  /// earlier session.
  @Test func editInANewSessionOpensTheLastCommandNotTheExitBeforeIt() async throws {
    try await offThePool { [self] in
      let server = try SandboxProcess()
      var deck = try DeckCLI(server: server)
      deck.environment["EDITOR"] = try scriptedEditor(deck)
      let first = try REPLTests().start(deck)
      _ = try run(first, "brokerage search keller --limit 1")
      first.send("exit\r")
      #expect(try first.waitForExit() == 0)

      let second = try REPLTests().start(deck)
      #expect(try run(second, "edit").contains("Nothing to run: the line is unchanged."))
      #expect(
        try String(contentsOfFile: deck.home + "/given-buffer", encoding: .utf8)
          == "brokerage search keller --limit 1\n",
        "the last command of the session before, not its exit")
      _ = try run(second, "env list")
      _ = try run(second, "edit")
      #expect(try String(contentsOfFile: deck.home + "/given-buffer", encoding: .utf8) == "env list\n")
      second.send("quit\r")
      #expect(try second.waitForExit() == 0)

      let third = try REPLTests().start(deck)
      _ = try run(third, "edit")
      #expect(
        try String(contentsOfFile: deck.home + "/given-buffer", encoding: .utf8) == "env list\n", "quit is skipped too")
      third.send("exit\r")
      #expect(try third.waitForExit() == 0)
    }
  }
}
