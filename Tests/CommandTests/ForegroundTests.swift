import DeckApp
import DeckCore
import Foundation
import Synchronization
import Testing

/// Which command lines the start-up helper hands back to the launcher (docs/HELPER.md): those
/// that own the terminal or run until stopped, and plugins, run in deck-core itself.
@Suite("Commands that run in the foreground")
struct ForegroundTests {
  @Test(arguments: [
    ["auth", "login", "--email", "a@example.com"], ["auth", "signup", "--email", "a@example.com"], ["kiosk", "run"],
    ["prefs", "edit", "player"],
    ["mbti", "quiz"], ["workspace", "onboard"], ["sandbox", "serve", "--port", "0"], ["run", "script.deck"],
    ["repl"], ["kiosk", "run", "--no-such-option"], ["--env", "local", "kiosk", "run"],
  ])
  func terminalAndLongRunningCommandsRunInDeckCore(arguments: [String]) {
    DeckRegistry.install(Registry.modules)
    #expect(DeckRunner.runsInForeground(Deck.self, arguments: arguments, path: "/nonexistent"))
  }

  @Test(arguments: [
    ["brokerage", "search", "keller"], ["--help"], ["brokerage", "search", "--help"], ["--version"],
    ["env", "list"], ["nosuch"], ["brokerage", "search"],
    ["---completion", "--", "--env", "2", "0", "deck", "--env", ""], ["kiosk", "run", "--help"],
    ["help", "kiosk", "run"],
  ])
  func otherLinesAndUsageErrorsRunInTheHelpersChild(arguments: [String]) {
    DeckRegistry.install(Registry.modules)
    #expect(!DeckRunner.runsInForeground(Deck.self, arguments: arguments, path: "/nonexistent"))
  }

  @Test func aPluginOnThePathRunsInDeckCore() throws {
    let directory = NSTemporaryDirectory() + "deck-plugin-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let plugin = directory + "/deck-hello"
    try "#!/bin/sh\necho hello\n".write(toFile: plugin, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: plugin)
    DeckRegistry.install(Registry.modules)
    #expect(DeckRunner.runsInForeground(Deck.self, arguments: ["hello"], path: directory))
    #expect(!DeckRunner.runsInForeground(Deck.self, arguments: ["hello"], path: "/nonexistent"))
  }

  /// Deciding must not run a completion request: in the helper's child that ran it with the
  /// warm-up's session (a stopped sandbox), so every Tab waited out the 300 ms budget first.
  @Test func aCompletionRequestIsDecidedWithoutRunningTheCompletion() throws {
    final class Calls: Sendable { let count = Mutex(0) }
    let calls = Calls()
    let deck = try InProcessDeck()
    let session = deck.session
    CompletionSession.register {
      calls.count.withLock { $0 += 1 }
      return session
    }
    DeckRegistry.install(Registry.modules)
    let prefix = "zz\(UUID().uuidString.prefix(8))"
    for line in [
      ["---completion", "brokerage", "search", "--", "positional@0", "3", "4", "deck", "brokerage", "search", prefix],
      ["---completion", "--", "--env", "2", "0", "deck", "--env", ""],
    ] {
      #expect(!DeckRunner.runsInForeground(Deck.self, arguments: line, path: "/nonexistent"))
    }
    #expect(calls.count.withLock { $0 } == 0)
  }
}
