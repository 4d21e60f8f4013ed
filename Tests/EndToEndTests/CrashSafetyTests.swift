import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `kill -9` of deck while it writes config.yml, tokens.json or the history leaves the
/// previous or the new file, never a torn one, and loses nothing already written.
@Suite("Crash safety: kill -9 while writing", .serialized, .endToEndTimeLimit)
struct CrashSafetyTests {
  /// Kills per file: 100 (each aimed at the write), or DECK_CRASH_LOOPS for a longer hunt.
  static let loops = Int(ProcessInfo.processInfo.environment["DECK_CRASH_LOOPS"] ?? "") ?? 100

  /// How long (µs) a whole run of this command takes here: kills are aimed around its end,
  /// where the write happens, so that some land before, some during and some after it.
  func duration(_ deck: DeckCLI, _ arguments: [String], stdin: String? = nil) throws -> UInt32 {
    let start = Date()
    let result = try DeckCLI.execute(
      DeckCLI.binary, arguments, stdin: stdin, environment: deck.environment, in: deck.home)
    #expect(result.status == 0)
    return UInt32(Date().timeIntervalSince(start) * 1_000_000)
  }

  /// Starts deck, kills it with SIGKILL after a random delay (often mid-write), and reaps it.
  func startAndKill(_ deck: DeckCLI, _ arguments: [String], stdin: String? = nil, around full: UInt32) throws {
    let maxDelay = full + full / 10
    let minDelay = full / 2
    let child = try DeckCLI.start(
      DeckCLI.binary, arguments, stdin: stdin, environment: deck.environment, in: deck.home)
    usleep(UInt32.random(in: minDelay...maxDelay))
    child.signal(SIGKILL)
    _ = child.wait(timeout: 10)
  }

  /// Environment names in a config.yml deck wrote; nil when the file is not one deck wrote whole.
  func environments(inConfig text: String) -> Set<String>? {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard text.hasSuffix("\n"), lines.removeLast().isEmpty, lines.first?.hasPrefix("# deck configuration") == true,
      lines.count >= 2, lines[1] == "environments:" || lines[1] == "environments: {}"
    else { return nil }
    var names = Set<String>()
    for line in lines.dropFirst(2) {
      guard line.hasPrefix("  "), line.hasSuffix(": {}") else { return nil }
      names.insert(String(line.dropFirst(2).dropLast(4)))
    }
    return names
  }

  @Test func configIsNeverTorn() throws {
    let deck = try DeckCLI()
    let full = try duration(deck, ["env", "add", "base"])
    let path = deck.configDirectory + "/config.yml"
    var known: Set<String> = ["base"]
    var completed = 0
    for index in 0..<Self.loops {
      try startAndKill(deck, ["env", "add", "e\(index)"], around: full)
      let text = try String(contentsOfFile: path, encoding: .utf8)
      let names = try #require(environments(inConfig: text), "torn config.yml after loop \(index):\n\(text)")
      #expect(names == known || names == known.union(["e\(index)"]), "lost an environment in loop \(index)")
      if names.count > known.count { completed += 1 }
      known = names
    }
    print("config.yml: \(Self.loops) kill -9 loops, \(completed) writes completed, 0 torn")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: deck.configDirectory)
      .filter { $0.hasSuffix(".tmp") }
    #expect(leftovers.count <= Self.loops, "at most one stray temporary file per kill")
  }

  @Test func tokensAreNeverTorn() throws {
    let deck = try DeckCLI()
    let full = try duration(deck, ["auth", "login", "--with-token"], stdin: unsignedJWT(email: "base@x.test"))
    var known: Set<String> = ["base@x.test"]
    var completed = 0
    for index in 0..<Self.loops {
      let email = "u\(index)@x.test"
      try startAndKill(deck, ["auth", "login", "--with-token"], stdin: unsignedJWT(email: email), around: full)
      let accounts = Set(try deck.tokenAccounts("sandbox").keys)  // throws on a torn file
      #expect(accounts == known || accounts == known.union([email]), "lost an account in loop \(index)")
      if accounts.count > known.count { completed += 1 }
      known = accounts
    }
    print("tokens.json: \(Self.loops) kill -9 loops, \(completed) writes completed, 0 torn")
  }

  @Test func historyIsNeverTorn() throws {
    let deck = try DeckCLI()
    let state = deck.home + "/state/deck"
    try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
    let path = state + "/history"
    // A small cap, and a file past it, so that appends also rewrite (trim) the file.
    let padding = String(repeating: "x", count: 80)
    let lines = (0..<40).map { "history 1 # line \($0) \(padding)" }
    try (lines.prefix(20).joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    let known = Set(lines)
    var environment = deck.environment
    environment["DECK_HISTORY_SIZE"] = "5"
    let loops = Self.loops
    for index in 0..<loops {
      do {
        let repl = try PseudoTerminal(arguments: ["repl"], environment: environment)
        _ = try repl.expect("deck (sandbox)> ")
        repl.send(lines.shuffled().prefix(8).map { $0 + "\r" }.joined())
        usleep(UInt32.random(in: 0...30_000))
      }  // PseudoTerminal's deinit sends SIGKILL and reaps the REPL
      let text = try String(contentsOfFile: path, encoding: .utf8)
      #expect(text.hasSuffix("\n"), "torn history after loop \(index)")
      let saved = text.split(separator: "\n").map(String.init)
      #expect(!saved.isEmpty)
      #expect(saved.allSatisfy(known.contains), "a torn line after loop \(index): \(saved)")
    }
    print("history: \(loops) kill -9 loops, 0 torn")
  }
}
