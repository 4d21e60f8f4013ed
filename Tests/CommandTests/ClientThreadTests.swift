import DeckCore
import DeckHTTPTransport
import DeckLive
import TestSupport
import Testing

/// Script mode runs its lines preferring the HTTP client's event loop thread
/// (`ServiceProviders.preferringClientThread`), so that a line's request and answer are not
/// handed between threads (bench/README.md). Work that suspends, and the child tasks a line
/// starts (a kiosk's polls), must come back to that thread, and a line's request still works
/// from it.
@Suite("Script lines on the client's thread")
struct ClientThreadTests {
  @Test func workStaysOnTheClientThreadAcrossSuspensionsAndChildTasks() async throws {
    #expect(!ClientLoopExecutor.shared.isCurrent)
    let seen = await LiveProviders().preferringClientThread { () async -> [Bool] in
      var seen = [ClientLoopExecutor.shared.isCurrent]
      try? await Task.sleep(for: .milliseconds(5))
      seen.append(ClientLoopExecutor.shared.isCurrent)
      let children = await withTaskGroup(of: Bool.self) { group in
        for _ in 0..<4 { group.addTask { ClientLoopExecutor.shared.isCurrent } }
        return await group.reduce(into: [Bool]()) { $0.append($1) }
      }
      return seen + children
    }
    #expect(seen == Array(repeating: true, count: 6))
    #expect(!ClientLoopExecutor.shared.isCurrent)
  }

  @Test func aScriptsRequestsAndTimeoutsWorkFromTheClientThread() async throws {
    let deck = try await InProcessDeck(features: .fixture)
    let result = await deck.session.providers.preferringClientThread { () async -> [InProcessDeck.Result] in
      [
        await deck.run(["fixture", "search", "gamma", "--json", "--limit", "1"]),
        await deck.run(["sandbox", "delay", "1000"]),
        await deck.run(["fixture", "search", "alpha", "--json", "--timeout", "0.2"]),
        await deck.run(["sandbox", "delay", "0"]),
      ]
    }
    #expect(result.map(\.status) == [0, 0, 69, 0], "\(result.map(\.stderr))")
    #expect(result[0].stdout.contains("Gamma Estates"))
    #expect(result[2].stderr.contains("did not answer within 0.2 s"))
  }
}
