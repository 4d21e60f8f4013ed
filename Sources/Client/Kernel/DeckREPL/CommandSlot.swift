import DeckCore
import DeckSupport
import Synchronization

/// The command running now, and what Ctrl-C does to it: the first press cancels it (in-flight
/// HTTP included), a second one abandons it and returns to the prompt.
final class CommandSlot: Sendable {
  private struct State {
    var task: Task<Void, Never>?
    var continuation: CheckedContinuation<Int32, Never>?
    var interrupts = 0
  }
  private let state = Mutex(State())
  private let output: Output

  init(output: Output) { self.output = output }

  func run(_ body: @escaping @Sendable () async -> Int32) async -> Int32 {
    await withCheckedContinuation { continuation in
      state.withLock { $0 = State(continuation: continuation) }
      let task = Task.detached { [self] in
        let code = await body()
        finish(code)
      }
      // A Ctrl-C that came before the task was recorded cancels it now.
      let early = state.withLock { state in
        state.task = task
        return state.interrupts > 0
      }
      if early { task.cancel() }
    }
  }

  private func finish(_ code: Int32) {
    let continuation = state.withLock { state -> CheckedContinuation<Int32, Never>? in
      defer { state = State() }
      return state.continuation
    }
    continuation?.resume(returning: code)
  }

  /// Ctrl-C while no prompt is up (from the interrupt watcher). Between commands it does nothing.
  func interrupt() {
    let (task, presses, continuation) = state.withLock {
      state -> (Task<Void, Never>?, Int, CheckedContinuation<Int32, Never>?) in
      guard state.continuation != nil else { return (nil, 0, nil) }
      state.interrupts += 1
      let abandon = state.interrupts >= 2 ? state.continuation : nil
      if abandon != nil { state = State() }
      return (state.task, state.interrupts, abandon)
    }
    if let continuation {
      output.info("\nAbandoned the command.")
      continuation.resume(returning: ExitCode.interrupted)
    } else if presses == 1, let task {
      task.cancel()
    }
  }
}
