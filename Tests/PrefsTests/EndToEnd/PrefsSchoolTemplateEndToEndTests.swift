import Foundation
import TestSupport
import Testing

/// On a real terminal: `prefs school template` asks before it replaces a list that
/// has preferences, and a "no" changes nothing.
@Suite("prefs school template, on a terminal", .endToEndTimeLimit)
struct PrefsSchoolTemplateEndToEndTests {
  @Test("school template over a list with preferences asks first; no keeps the list, yes replaces it")
  func templateAsksOnATerminal() async throws {
    try await offThePool {
      let (server, deck) = try DeckCLI.signedIn()
      defer { withExtendedLifetime((server, deck)) {} }
      #expect(try deck.run(["prefs", "school", "add", "must_have", "Engineering"]).status == 0)
      var environment = deck.environment
      environment["TERM"] = "xterm"
      environment["INPUTRC"] = "/dev/null"
      let prompt = "deck (local:athlete@sandbox.test)> "
      let repl = try PseudoTerminal(arguments: [], environment: environment)
      try repl.expect(prompt)

      repl.send("prefs school template close-to-home\r")
      try repl.expect(
        "Replace the 1 school preference of athlete@sandbox.test with the template close-to-home? [y/N] ")
      repl.send("n\r")
      try repl.expect("Nothing was changed.")
      try repl.expect(prompt)
      let kept = try deck.run(["prefs", "school", "list", "--no-cache", "--jq", "[.preferences[].type] | join(\",\")"])
      #expect(kept.stdout == "must_have\n", "\(kept.stderr)")

      repl.send("prefs school template close-to-home\r")
      try repl.expect("[y/N] ")
      repl.send("y\r")
      try repl.expect("Template: Close to Home")
      try repl.expect(prompt)
      // The list has the template's preference now; --yes replaces it without a question.
      repl.send("prefs school template best-fit --yes\r")
      try repl.expect("Template: Best Fit (Balanced)")
      try repl.expect(prompt)
      repl.send("exit\r")
      #expect(try repl.waitForExit() == 0)
    }
  }
}
