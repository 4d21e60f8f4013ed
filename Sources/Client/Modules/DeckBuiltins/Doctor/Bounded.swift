import Synchronization

/// Runs async work for at most `limit`: past it the caller gets nil at once, and the work is
/// cancelled without being waited for, so a server that never answers cannot hold
/// `deck doctor` past its bound.
enum Bounded {
  static func run<Value: Sendable>(
    within limit: Duration, _ work: @escaping @Sendable () async -> Value
  ) async -> Value? {
    let task = Task { await work() }
    let waiting = Waiting<Value>()
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        waiting.continuation.withLock { $0 = continuation }
        let timer = Task {
          // Cancelled: the work finished first.
          guard (try? await Task.sleep(for: limit)) != nil else { return }
          // The caller gets nil before the work is cancelled: work that ends at once when
          // cancelled (an HTTP request, with "Interrupted.") must not answer in its place.
          waiting.finish(nil)
          task.cancel()
        }
        Task {
          let value = await task.value
          timer.cancel()
          waiting.finish(value)
        }
      }
    } onCancel: {
      task.cancel()
    }
  }

  /// The caller's continuation, resumed once: by the work or by the timer, whichever is first.
  private final class Waiting<Value: Sendable>: Sendable {
    let continuation = Mutex<CheckedContinuation<Value?, Never>?>(nil)

    func finish(_ value: Value?) {
      let waiting = continuation.withLock { state in
        defer { state = nil }
        return state
      }
      waiting?.resume(returning: value)
    }
  }
}
