import DeckCore
import DeckSupport
import Dispatch
import Testing

/// Blocking work (libvips on a photo) runs on a queue of its own, not a cooperative thread, and
/// its result or error comes back to the caller.
@Suite("Blocking work off the cooperative threads")
struct BlockingWorkTests {
  @Test func workRunsOnItsOwnQueueAndReturns() async throws {
    let name = await BlockingWork.run(named: "deck-editor") {
      DispatchQueue.getSpecific(key: BlockingWork.queueKey)
    }
    #expect(name == "deck-editor")
    let value = try await BlockingWork.run(named: "deck-photo") { () throws -> Int in 6 * 7 }
    #expect(value == 42)
  }

  @Test func anErrorComesBack() async {
    await #expect(throws: DeckError.usage("corrupt")) {
      try await BlockingWork.run(named: "deck-photo") { () throws -> Int in throw DeckError.usage("corrupt") }
    }
  }
}
