import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The default environment's local sandbox: a `deck-sandbox` process that deck starts on
/// demand, reuses, replaces when it died, hangs or is of another build, and that exits by
/// itself when idle.
@Suite("Local sandbox (started on demand)", .endToEndTimeLimit)
struct LocalSandboxTests {
  /// The record of the test's local sandbox (the only one in its runtime directory).
  func record(_ deck: DeckCLI) throws -> [String: Any]? {
    let directory = deck.home + "/run/deck"
    guard
      let name = try? FileManager.default.contentsOfDirectory(atPath: directory).first(where: { $0.hasSuffix(".json") }
      ),
      let data = FileManager.default.contents(atPath: directory + "/" + name)
    else { return nil }
    return try JSONSerialization.jsonObject(with: data) as? [String: Any]
  }

  func pid(_ deck: DeckCLI) throws -> Int32 {
    try #require(currentPid(deck))
  }

  /// The record's pid, or nil while there is no record: for polling, where a missing record
  /// is not (yet) a failure (`pid` records an issue even under `try?`).
  func currentPid(_ deck: DeckCLI) -> Int32? {
    ((try? record(deck)) ?? nil)?["pid"].flatMap { $0 as? Int }.map { Int32($0) }
  }

  /// deck-sandbox processes serving this test's database.
  func servers(_ deck: DeckCLI) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { Int32($0) }.filter { pid in
      guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
      let words = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
      return words.first?.hasSuffix("deck-sandbox") == true && words.contains { $0.hasPrefix(deck.home) }
    }
  }

  func alive(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
    // A zombie (Z) has exited.
    return !(stat.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).hasPrefix("Z") ?? true)
  }

  func search(_ deck: DeckCLI, environment: [String: String] = [:]) throws -> DeckCLI.Result {
    let result = try deck.run(["brokerage", "search", "keller", "--json"], environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Keller Williams"))
    return result
  }

  @Test func parallelFirstCommandsStartExactlyOneServer() throws {
    let deck = try DeckCLI()
    let children = try (0..<16).map { _ in
      try DeckCLI.start(
        DeckCLI.binary, ["brokerage", "search", "keller", "--json"], stdin: nil, environment: deck.environment,
        in: deck.home)
    }
    for child in children {
      let result = try child.finish()
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout.contains("Keller Williams"))
    }
    #expect(servers(deck).count == 1)
    let record = try #require(try record(deck))
    #expect(servers(deck) == [Int32(record["pid"] as? Int ?? 0)])
    // The record and its directory are private; the token is in it, never on the command line.
    let directory = deck.home + "/run/deck"
    let directoryMode = try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int
    #expect(directoryMode == 0o700)
    for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name.hasSuffix(".json") {
      let mode = try FileManager.default.attributesOfItem(atPath: directory + "/" + name)[.posixPermissions] as? Int
      #expect(mode == 0o600)
    }
    let token = try #require(record["adminToken"] as? String)
    let commandLine = try #require(FileManager.default.contents(atPath: "/proc/\(try pid(deck))/cmdline"))
    #expect(!String(decoding: commandLine, as: UTF8.self).contains(token))
    _ = try deck.run(["sandbox", "stop"])
  }

  @Test func aKilledServerIsRestartedByTheNextCommand() throws {
    let deck = try DeckCLI()
    _ = try search(deck)
    let first = try pid(deck)
    kill(first, SIGKILL)
    #expect(eventually(timeout: 10) { !alive(first) })
    let again = try search(deck)
    #expect(again.stderr.contains("(pid \(first)) had stopped"), "\(again.stderr)")
    let second = try pid(deck)
    #expect(second != first)
    #expect(alive(second))
    _ = try deck.run(["sandbox", "stop"])
  }

  /// A dropped connection in the default environment does not send the user to `deck sandbox
  /// serve --port N` (a port of deck's own server, found by the mbti QA scenarios): the hint
  /// says deck runs that sandbox and where a reset may come from.
  @Test func aResetInTheDefaultEnvironmentHintsAtTheLocalSandbox() throws {
    let deck = try DeckCLI()
    _ = try search(deck)
    let fault = try deck.run(["sandbox", "fault", "add", "/api/brokerages/search", "--reset"])
    #expect(fault.status == 0, "\(fault.stderr)")
    let result = try deck.run(["brokerage", "search", "keller"])
    #expect(result.status == 69, "\(result.stderr)")
    #expect(!result.stderr.contains("deck sandbox serve"), "\(result.stderr)")
    #expect(result.stderr.contains("deck sandbox fault list"), "\(result.stderr)")
    _ = try deck.run(["sandbox", "stop"])
  }

  @Test func aShellsCompletionRestartsAKilledServerWithoutWritingToTheTerminal() throws {
    let deck = try DeckCLI()
    _ = try search(deck)
    let first = try pid(deck)
    kill(first, SIGKILL)
    #expect(eventually(timeout: 10) { !alive(first) })
    // bash runs this while the user's prompt is on the screen: a note on stderr would be
    // printed into the middle of the line being edited.
    let completion = try deck.run(
      ["---completion", "brokerage", "search", "--", "positional@0", "3", "4", "deck", "brokerage", "search", "kell"],
      environment: ["SAP_SHELL": "bash"])
    #expect(completion.status == 0)
    #expect(completion.stderr.isEmpty, "\(completion.stderr)")
    #expect(eventually(timeout: 10) { currentPid(deck).map { $0 != first && alive($0) } ?? false })
    _ = try deck.run(["sandbox", "stop"])
  }

  @Test func aHungServerIsReplacedByTheNextCommand() throws {
    let deck = try DeckCLI()
    _ = try search(deck)
    let first = try pid(deck)
    kill(first, SIGSTOP)
    let again = try search(deck)
    #expect(again.stderr.contains("(pid \(first)) did not answer"), "\(again.stderr)")
    #expect(eventually(timeout: 10) { !alive(first) })
    #expect(try pid(deck) != first)
    _ = try deck.run(["sandbox", "stop"])
  }

  @Test func anIdleServerExitsAndTheNextCommandStartsAnother() throws {
    let deck = try DeckCLI()
    _ = try search(deck, environment: ["DECK_SANDBOX_IDLE_TIMEOUT": "2"])
    let first = try pid(deck)
    #expect(eventually(timeout: 15) { !alive(first) })
    #expect(try record(deck) == nil, "it removes its record")
    let again = try search(deck)
    #expect(!again.stderr.contains("had stopped"), "an idle exit is no failure: \(again.stderr)")
    #expect(try pid(deck) != first)
    _ = try deck.run(["sandbox", "stop"])
  }

  @Test func aServerOfAnotherBuildIsReplaced() throws {
    let deck = try DeckCLI()
    // Another build: the same program as another file.
    let other = deck.home + "/other-deck-sandbox"
    try FileManager.default.copyItem(atPath: DeckCLI.sandboxBinary, toPath: other)
    _ = try search(deck, environment: ["DECK_SANDBOX_PROGRAM": other])
    let first = try pid(deck)
    let replaced = try search(deck)
    #expect(replaced.stderr.contains("Replacing the local sandbox of another deck build (pid \(first))"))
    #expect(eventually(timeout: 10) { !alive(first) })
    #expect(try pid(deck) != first)
    #expect(servers(deck).count == 1)
    _ = try deck.run(["sandbox", "stop"])
  }

  @Test func faultRulesAndDelaysLastAcrossCommands() throws {
    let deck = try DeckCLI()
    #expect(
      try deck.run(["sandbox", "fault", "add", "/api/brokerages/**", "--status", "503", "--times", "50"]).status == 0)
    let failed = try deck.run(["brokerage", "search", "keller", "--json"])
    #expect(failed.status == 69, "the rule still applies in the next command: \(failed.stderr)")
    let listed = try deck.run(["sandbox", "fault", "list", "--json"])
    #expect(listed.stdout.contains("/api/brokerages/**"))
    #expect(try deck.run(["sandbox", "fault", "clear"]).status == 0)
    _ = try search(deck)
    #expect(try deck.run(["sandbox", "delay"]).stdout == "Responses are not delayed.\n")
    #expect(try deck.run(["sandbox", "delay", "150"]).status == 0)
    // Without a number, delay prints the one in force (issue 31).
    #expect(try deck.run(["sandbox", "delay"]).stdout == "Every API response is delayed by 150 ms.\n")
    #expect(try json(try deck.run(["sandbox", "delay", "--json"]).stdout) as? [String: Int] == ["milliseconds": 150])
    let started = Date()
    _ = try search(deck)
    #expect(Date().timeIntervalSince(started) >= 0.15)
    _ = try deck.run(["sandbox", "stop"])
  }

  @Test func theServerGetsNothingOfTheCallersEnvironment() throws {
    let deck = try DeckCLI()
    let secret = "caller-secret-\(UUID().uuidString)"
    _ = try search(deck, environment: ["DECK_TOKEN": secret, "MY_SECRET": secret, "DECK_SANDBOX_ADMIN_TOKEN": secret])
    let environ = try #require(FileManager.default.contents(atPath: "/proc/\(try pid(deck))/environ"))
    let variables = environ.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    #expect(!variables.contains { $0.contains(secret) })
    #expect(Set(variables.map { String($0.prefix { $0 != "=" }) }).isSubset(of: ["PATH", "HOME", "LANG"]))
    _ = try deck.run(["sandbox", "stop"])
  }

  @Test func statusShowsTheProcessAndStopStopsIt() throws {
    let deck = try DeckCLI()
    let status = try deck.run(["sandbox", "status", "--json"])
    #expect(status.status == 0, "\(status.stderr)")
    let object = try #require(try json(status.stdout) as? [String: Any])
    let process = try #require(object["localSandbox"] as? [String: Any])
    let pid = Int32(try #require(process["pid"] as? Int))
    #expect(process["idleTimeoutSeconds"] as? Int == 900)
    #expect((process["url"] as? String)?.hasPrefix("http://127.0.0.1:") == true)
    #expect(!status.stdout.contains(try #require(try record(deck)?["adminToken"] as? String)))
    let table = try deck.run(["sandbox", "status"])
    #expect(table.stdout.contains("idle timeout"))
    #expect(table.stdout.contains("pid"))
    let stop = try deck.run(["sandbox", "stop"])
    #expect(stop.status == 0)
    #expect(stop.stdout.contains("Stopped the local sandbox (pid \(pid))"))
    #expect(eventually(timeout: 10) { !alive(pid) })
    #expect(try deck.run(["sandbox", "stop"]).stdout.contains("not running"))
    // Only the default environment's sandbox is deck's to stop.
    #expect(try deck.run(["--env", "local", "sandbox", "stop"]).status == 64)
  }

  /// A REPL outlives its server's idle timeout: the next line finds the server gone and starts
  /// another (the session had kept the first one's address).
  @Test func aREPLLeftIdlePastTheTimeoutGetsANewServer() throws {
    var deck = try DeckCLI()
    deck.environment["DECK_SANDBOX_IDLE_TIMEOUT"] = "2"
    let repl = try REPLTests().start(deck, prompt: "deck (sandbox)> ")
    repl.send("brokerage search keller --limit 1\r")
    try repl.expect("Keller Williams")
    try repl.expect("deck (sandbox)> ")
    let first = try pid(deck)
    #expect(eventually(timeout: 15) { !alive(first) })
    repl.send("brokerage search compass --limit 1\r")
    try repl.expect("Compass")
    try repl.expect("deck (sandbox)> ")
    #expect(try pid(deck) != first)
    repl.send("sandbox stop\r")
    try repl.expect("deck (sandbox)> ")
    repl.send("exit\r")
    #expect(try repl.waitForExit() == 0)
  }
}
