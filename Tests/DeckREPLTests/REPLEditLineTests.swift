import Testing

@testable import DeckREPL

/// Issue 45: the line the REPL's `edit` opens.
@Suite("REPL edit's line")
struct REPLEditLineTests {
  @Test func theLastCommandThatIsNotEditExitOrQuit() {
    // A new session: the history ends with the exit of the one before.
    #expect(REPL.lineToEdit(["env list", "fixture search alpha", "exit"]) == "fixture search alpha")
    #expect(REPL.lineToEdit(["env list", "deck quit", "edit", "deck edit", "quit"]) == "env list")
    // This session's last command is the last history line.
    #expect(REPL.lineToEdit(["fixture search alpha", "exit", "env list", "edit"]) == "env list")
    // A line that does not split (an open quote) is kept as typed.
    #expect(REPL.lineToEdit(["sandbox fault add /x --status 503", "echo 'open"]) == "echo 'open")
    #expect(REPL.lineToEdit(["exit", "quit", "edit"]) == nil)
    #expect(REPL.lineToEdit([]) == nil)
  }
}
