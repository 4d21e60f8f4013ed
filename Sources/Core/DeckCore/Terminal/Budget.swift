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
  /// The duration, to the nanosecond (saturating at `Int.max` nanoseconds).
  public init(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    let (sum, carry) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
    let nanoseconds = overflow || carry ? (seconds < 0 ? 0 : Int64.max) : sum
    self = .nanoseconds(Int(clamping: max(0, nanoseconds)))
  }
}
