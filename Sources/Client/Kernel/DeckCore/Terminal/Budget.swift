import Dispatch
import Synchronization

/// Runs async work from a synchronous caller (a completion callback, which readline and the
/// argument parser call synchronously) for at most `budget`: past it the work is cancelled and
/// the caller gets nil, so a slow or dead backend never freezes a prompt.
public enum Budgeted {
  public static func run<Value: Sendable>(
    within budget: Duration, _ work: @escaping @Sendable () async throws -> Value
  ) -> Value? {
    let result = Mutex<Value?>(nil)
    let done = DispatchSemaphore(value: 0)
    let task = Task.detached {
      let value = try? await work()
      result.withLock { $0 = value }
      done.signal()
    }
    guard done.wait(timeout: .now() + DispatchTimeInterval(budget)) == .success else {
      task.cancel()
      return nil
    }
    return result.withLock { $0 }
  }
}

extension DispatchTimeInterval {
  /// The duration, to the nanosecond, within 0 and a day (a budget is never longer).
  public init(_ duration: Duration) {
    let bounded = min(max(duration, .zero), .seconds(86_400))
    self = .nanoseconds(Int(bounded / .nanoseconds(1)))
  }
}
