import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `kill -9` of deck while it writes config.yml, tokens.json or the history leaves the
/// previous or the new file, never a torn one, and loses nothing already written.
///
/// Each test's loop runs on a thread of its own (`offThePool`) and returns the first thing that
/// went wrong (nil: nothing did): a loop of 100 child processes held a thread of the cooperative
/// pool (two on two cores) for minutes, so the three ran one after another and the rest of the
/// end-to-end run shared one thread meanwhile.
@Suite("Crash safety: kill -9 while writing", .endToEndTimeLimit)
struct CrashSafetyTests {
  /// Kills per file: 100 (each aimed at the write), or DECK_CRASH_LOOPS for a longer hunt.
  static let loops = Int(ProcessInfo.processInfo.environment["DECK_CRASH_LOOPS"] ?? "") ?? 100

  /// How long (µs) a whole run of this command takes here: kills are aimed around its end,
  /// where the write happens, so that some land before, some during and some after it.
  static func duration(_ deck: DeckCLI, _ arguments: [String], stdin: String? = nil) throws -> UInt32? {
    let start = Date()
    let result = try DeckCLI.execute(
      DeckCLI.binary, arguments, stdin: stdin, environment: deck.environment, in: deck.home)
    guard result.status == 0 else { return nil }
    return UInt32(Date().timeIntervalSince(start) * 1_000_000)
  }

  /// Starts deck, kills it with SIGKILL after a random delay (often mid-write), and reaps it.
  static func startAndKill(_ deck: DeckCLI, _ arguments: [String], stdin: String? = nil, around full: UInt32) throws {
    let maxDelay = full + full / 10
    let minDelay = full / 2
    let child = try DeckCLI.start(
      DeckCLI.binary, arguments, stdin: stdin, environment: deck.environment, in: deck.home)
    usleep(UInt32.random(in: minDelay...maxDelay))
    child.signal(SIGKILL)
    _ = child.wait(timeout: 10)
  }

  /// Environment names in a config.yml deck wrote; nil when the file is not one deck wrote whole.
  static func environments(inConfig text: String) -> Set<String>? {
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

  @Test func configIsNeverTorn() async throws {
    let problem = try await offThePool { () throws -> String? in
      let deck = try DeckCLI()
      guard let full = try Self.duration(deck, ["env", "add", "base"]) else { return "deck env add base failed" }
      let path = deck.configDirectory + "/config.yml"
      var known: Set<String> = ["base"]
      var completed = 0
      for index in 0..<Self.loops {
        try Self.startAndKill(deck, ["env", "add", "e\(index)"], around: full)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        guard let names = Self.environments(inConfig: text) else {
          return "torn config.yml after loop \(index):\n\(text)"
        }
        guard names == known || names == known.union(["e\(index)"]) else {
          return "lost an environment in loop \(index): \(known.subtracting(names).sorted())"
        }
        if names.count > known.count { completed += 1 }
        known = names
      }
      print("config.yml: \(Self.loops) kill -9 loops, \(completed) writes completed, 0 torn")
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: deck.configDirectory)
        .filter { $0.hasSuffix(".tmp") }
      return leftovers.count <= Self.loops ? nil : "\(leftovers.count) stray temporary files: more than one per kill"
    }
    #expect(problem == nil, "\(problem ?? "")")
  }

  @Test func tokensAreNeverTorn() async throws {
    let problem = try await offThePool { () throws -> String? in
      let deck = try DeckCLI()
      let login = ["auth", "login", "--with-token"]
      guard let full = try Self.duration(deck, login, stdin: unsignedJWT(email: "base@x.test")) else {
        return "deck auth login --with-token failed"
      }
      var known: Set<String> = ["base@x.test"]
      var completed = 0
      for index in 0..<Self.loops {
        let email = "u\(index)@x.test"
        try Self.startAndKill(deck, login, stdin: unsignedJWT(email: email), around: full)
        let accounts = Set(try deck.tokenAccounts("sandbox").keys)  // throws on a torn file
        guard accounts == known || accounts == known.union([email]) else {
          return "lost an account in loop \(index): \(known.subtracting(accounts).sorted())"
        }
        if accounts.count > known.count { completed += 1 }
        known = accounts
      }
      print("tokens.json: \(Self.loops) kill -9 loops, \(completed) writes completed, 0 torn")
      return nil
    }
    #expect(problem == nil, "\(problem ?? "")")
  }

  @Test func historyIsNeverTorn() async throws {
    let problem = try await offThePool { () throws -> String? in
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
      for index in 0..<Self.loops {
        do {
          let repl = try PseudoTerminal(arguments: ["repl"], environment: environment)
          _ = try repl.expect("deck (sandbox)> ")
          repl.send(lines.shuffled().prefix(8).map { $0 + "\r" }.joined())
          usleep(UInt32.random(in: 0...30_000))
        }  // PseudoTerminal's deinit sends SIGKILL and reaps the REPL
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let saved = text.split(separator: "\n").map(String.init)
        guard text.hasSuffix("\n"), !saved.isEmpty, saved.allSatisfy(known.contains) else {
          return "torn history after loop \(index):\n\(text)"
        }
      }
      print("history: \(Self.loops) kill -9 loops, 0 torn")
      return nil
    }
    #expect(problem == nil, "\(problem ?? "")")
  }
}
