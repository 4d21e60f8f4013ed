import Foundation
import TestSupport
import Testing

@Suite("Script mode", .endToEndTimeLimit)
struct ScriptModeTests {
  func script(_ deck: DeckCLI, _ text: String) throws -> String {
    let path = deck.home + "/script.deck"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func stdinLinesRunWithJSONOutputForJQ() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let result = try deck.run(
      [],
      stdin: "# brokerages\nbrokerage search keller --json --limit 2\ndeck brokerage search 'RE/MAX' --json --limit 1\n"
    )
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 2)
    let second = try #require(try json(String(lines[1])) as? [[String: Any]])
    #expect(second.first?["name"] as? String == "RE/MAX")
    #expect(!result.stdout.contains("\u{1B}["), "no colour, no prompt")
  }

  @Test func firstFailureStopsTheRunWithItsExitCode() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let path = try script(deck, "brokerage search compass --json --limit 1\nbrokerage search '  '\nenv list --json\n")
    let result = try deck.run(["run", path])
    #expect(result.status == 64)
    #expect(result.stdout.split(separator: "\n").count == 1, "the line after the failure never ran")
    #expect(result.stderr.contains("script.deck:2"))
  }

  // Each line is parsed while the one before it waits for the server; what a line that runs
  // nothing prints (a usage error, help) still comes after the output of the lines before it,
  // stdout and stderr alike.
  @Test func linesParsedAheadAnswerInTheirTurn() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let path = try script(
      deck,
      """
      brokerage search compass --json --limit 1
      brokerage search --limit 0 x
      brokerage search keller --json --limit 1
      brokerage search --help
      brokerage search coldwell --json --limit 1

      """)
    // One stream, as a terminal shows them.
    let result = try DeckCLI.execute(
      "/bin/sh", ["-c", #""$0" run "$1" --keep-going 2>&1"#, DeckCLI.binary, path], stdin: nil,
      environment: deck.environment, in: deck.home)
    #expect(result.status == 64, "\(result.stdout)")
    let order = ["Compass", "--limit must be between 1 and 50", "script.deck:2:", "Keller", "USAGE:", "Coldwell"]
    let positions = try order.map { try #require(result.stdout.range(of: $0), "\(result.stdout)").lowerBound }
    #expect(positions == positions.sorted(), "\(result.stdout)")
    #expect(result.stdout.hasSuffix("script.deck: 5 lines run, 1 failed (line 2)\n"), "\(result.stdout)")
  }

  @Test func keepGoingRunsEveryLine() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let path = try script(deck, "brokerage search '  '\nauth token\nbrokerage search compass --json --limit 1\n")
    let result = try deck.run(["run", path, "--keep-going"])
    #expect(result.status == 64, "the first failure's code")
    #expect(result.stdout.contains("Compass"))
    #expect(result.stderr.contains("Not signed in"))
  }

  // `let NAME = COMMAND` keeps a command's stdout (less one trailing newline) for `$NAME` and
  // `${NAME}` in later lines, expanded as the REPL's quoting reads them: not in single quotes.
  @Test func letCapturesAResultForLaterLines() throws {
    let deck = try DeckCLI()
    let path = try script(
      deck,
      #"""
      let first = env list --jq '.[0].name'
      env list --jq "\"${first}-x\""
      env list --jq '"$first"'
      let quoted = env list --jq '"\"a b\""'
      env list --jq $quoted

      """#)
    let result = try deck.run(["run", path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "sandbox-x\n$first\na b\n", "a value is one word, never split")
  }

  @Test func anUndefinedVariableStopsTheRunAtItsLine() throws {
    let deck = try DeckCLI()
    let path = try script(deck, "env list --jq '.[0].name'\nenv show $nope\nenv list --json\n")
    let result = try deck.run(["run", path])
    #expect(result.status == 64)
    #expect(result.stdout == "sandbox\n", "the line after the failure never ran")
    #expect(result.stderr.contains("script.deck:2: $nope is not defined"), "\(result.stderr)")
  }

  @Test func keepGoingReportsEachFailureWithItsLineAndASummary() throws {
    let deck = try DeckCLI()
    let path = try script(
      deck,
      #"""
      let env = env list --jq '.[0].name'
      env list --jq '"\(.[0].name) \(length > 0)"'
      env show $missing
      let = env list
      let bad = env list --jq 'error("no")'
      env list --jq "\"$bad\""
      env list --jq "\"$env\""

      """#)
    let result = try deck.run(["run", path, "--keep-going"])
    #expect(result.status == 64, "the first failure's code: \(result.stderr)")
    #expect(result.stdout == "sandbox true\nsandbox\n")
    #expect(result.stderr.contains("script.deck:3: env show $missing: exit 64"), "\(result.stderr)")
    #expect(result.stderr.contains("script.deck:4: let = env list: exit 64"))
    #expect(result.stderr.contains(#"script.deck:5: let bad = env list --jq 'error("no")': exit 1"#))
    #expect(result.stderr.contains("$bad is not defined"), "a failed let defines nothing")
    #expect(result.stderr.hasSuffix("script.deck: 7 lines run, 4 failed (lines 3, 4, 5, 6)\n"), "\(result.stderr)")
  }

  // A script in the default environment: the kiosk's polling, operator triggers and inspection
  // against the local sandbox, one process for every line.
  @Test func kioskSessionsOnTheLocalSandboxRunInOneScript() throws {
    let deck = try DeckCLI()
    let path = try script(
      deck,
      """
      kiosk pair store_demo --json
      sandbox trigger purchase --store store_demo --json
      sandbox trigger purchase --store store_demo --json
      kiosk run --sessions 2 --rating 5 --approve --json --poll-interval 0.05 --handoff-timeout 0.05 --thank-you 0.01
      sandbox inspect store store_demo --json

      """)
    let result = try deck.run(["run", path])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 6, "\(result.stdout)")
    let reports = try lines.dropFirst(3).prefix(2).map { try #require(try json($0) as? [String: Any]) }
    #expect(reports.map { $0["status"] as? String } == ["POSTED_INTENT", "POSTED_INTENT"])
    let store = try #require(try json(lines.last ?? "") as? [String: Any])
    #expect((store["sessions"] as? [String: Int])?["POSTED_INTENT"] == 2)
  }

  // A request's deadline is a timer on that same loop.
  @Test func aLineThatTimesOutStopsTheScriptWithExit69() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let path = try script(
      deck,
      """
      brokerage search compass --json --limit 1
      sandbox delay 2000
      brokerage search keller --json --limit 1 --timeout 0.3
      env list --json

      """)
    let result = try deck.run(["run", path])
    #expect(try deck.run(["sandbox", "delay", "0"]).status == 0)
    #expect(result.status == 69, "\(result.stderr)")
    #expect(result.stdout.contains("Compass"))
    #expect(result.stderr.contains("did not answer within 0.3 s"), "\(result.stderr)")
    #expect(result.stderr.contains("script.deck:3"))
    #expect(!result.stdout.contains("\"local\""), "the line after the failure never ran")
  }

  @Test func unreadableScriptIsAUsageError() throws {
    let deck = try DeckCLI()
    #expect(try deck.run(["run", "/nonexistent/script"]).status == 64)
  }
}

@Suite("External plugins", .endToEndTimeLimit)
struct PluginTests {
  func install(_ name: String, _ body: String, in deck: DeckCLI) throws -> String {
    let directory = deck.home + "/bin"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = directory + "/deck-\(name)"
    try ("#!/bin/sh\n" + body).write(toFile: path, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    return directory
  }

  @Test func pluginRunsWithEnvironmentButNoTokenAndPassesItsExitCode() throws {
    let server = try SandboxProcess()
    var deck = try DeckCLI(server: server)
    let directory = try install(
      "hello", "echo \"hello $* env=$DECK_ENV flyr=$DECK_FLYR_URL token=${DECK_TOKEN:-none}\"\nexit 3\n", in: deck)
    deck.environment["PATH"] = directory + ":" + (deck.environment["PATH"] ?? "")
    #expect(
      try deck.run(["auth", "login", "--email", "owner@sandbox.test", "--password-stdin"], stdin: "sandbox").status == 0
    )
    let result = try deck.run(["hello", "a", "b"])
    #expect(result.status == 3)
    #expect(result.stdout == "hello a b env=local flyr=\(server.url) token=none\n")
    let listed = try #require(try json(try deck.run(["plugins", "--json"]).stdout) as? [[String: Any]])
    #expect(listed.contains { $0["name"] as? String == "hello" && $0["shadowed"] as? Bool == false })
  }

  @Test func localSandboxURLsReachThePlugin() throws {
    var deck = try DeckCLI()
    let directory = try install(
      "search", "exec curl -s \"$DECK_FLYR_URL/api/brokerages/search?q=compass&limit=1\"\n", in: deck)
    deck.environment["PATH"] = directory + ":" + (deck.environment["PATH"] ?? "")
    let result = try deck.run(["search"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("Compass"))
  }

  @Test func builtinWinsAClashAndPluginsReportsIt() throws {
    var deck = try DeckCLI()
    let directory = try install("env", "echo plugin\n", in: deck)
    deck.environment["PATH"] = directory + ":" + (deck.environment["PATH"] ?? "")
    #expect(try deck.run(["env", "list"]).stdout.contains("sandbox"))
    let plugins = try deck.run(["plugins"])
    #expect(plugins.stdout.contains("shadowed by the built-in `deck env`"))
  }
}

@Suite("Shell completion", .endToEndTimeLimit)
struct ShellCompletionTests {
  @Test(arguments: ["bash", "zsh", "fish"])
  func scriptsMatchTheCommittedOnes(shell: String) throws {
    let deck = try DeckCLI()
    let script = try deck.run(["completion", shell])
    #expect(script.status == 0)
    #expect(script.stdout.contains("---completion"), "dynamic values call back into deck")
    let file = ["bash": "deck.bash", "zsh": "_deck", "fish": "deck.fish"][shell]!
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let committed = try String(contentsOf: root.appendingPathComponent("completions/\(file)"), encoding: .utf8)
    #expect(
      committed == script.stdout,
      "completions/\(file) is stale: run scripts/generate-docs")
  }

  @Test func shellCallbackOffersBrokerageNamesFromTheBackend() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let result = try deck.run(
      ["---completion", "brokerage", "search", "--", "positional@0", "3", "5", "deck", "brokerage", "search", "Compa"],
      environment: ["SAP_SHELL": "bash"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("Compass"))
  }

  @Test func deadBackendOffersNothingQuickly() throws {
    var deck = try DeckCLI()
    deck.environment["DECK_ENV"] = "local"
    deck.environment["DECK_FLYR_URL"] = "http://127.0.0.1:9"
    let started = Date()
    let result = try deck.run(
      ["---completion", "brokerage", "search", "--", "positional@0", "3", "4", "deck", "brokerage", "search", "kell"])
    #expect(result.status == 0)
    #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    #expect(Date().timeIntervalSince(started) < 3)
  }
}
