import CHelper
import DeckHTTPTransport
import NIOCore
import Synchronization

/// Script mode's executor: every job of Swift's global executor, sleeps included, runs on the
/// HTTP client's event loop thread, so a script line's task, the request it sends and the
/// answer it reads stay on one thread. Left on the global executor, each request hands the
/// task to the event loop and back, and wakes a pool thread for async-http-client's own
/// per-request task: between five and six thread switches per line, a sixth of script mode's
/// CPU (bench/README.md, "Sixth pass").
///
/// A job that blocks its thread until another task finishes would wait on the thread that task
/// needs, so this is not for the REPL, whose completions wait for the network (`Budgeted`).
/// Script mode has no such wait: its lines run one after another, and the commands that wait
/// for a person read the terminal on threads of their own. (A shell's `---completion` request
/// written into a script gets nothing once its budget runs out.)
public enum ClientLoopExecutor {
  private static let loop = Mutex<(any EventLoop)?>(nil)

  /// Sends the global executor's jobs to the HTTP client's event loop (starting it) for the
  /// rest of the process. Call it once, before the work it is for starts.
  public static func takeOver() {
    let target = HTTPTransportFactory.eventLoopGroup.next()
    loop.withLock { $0 = target }
    typealias GlobalHook = @convention(thin) (UnownedJob, UnsafeRawPointer?) -> Void
    typealias DelayHook = @convention(thin) (UInt64, UnownedJob, UnsafeRawPointer?) -> Void
    typealias DeadlineHook =
      @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob, UnsafeRawPointer?) -> Void
    let global: GlobalHook = { job, _ in ClientLoopExecutor.enqueue(job, after: nil) }
    let delayed: DelayHook = { nanoseconds, job, _ in
      ClientLoopExecutor.enqueue(job, after: .nanoseconds(Int64(clamping: nanoseconds)))
    }
    let deadline: DeadlineHook = { seconds, nanoseconds, _, _, clock, job, _ in
      let left = deck_seconds_until(seconds, nanoseconds, clock)
      ClientLoopExecutor.enqueue(job, after: .nanoseconds(Int64(min(left, 86_400 * 365) * 1e9)))
    }
    deck_hook_global().pointee = unsafeBitCast(global, to: UnsafeMutableRawPointer.self)
    deck_hook_delay().pointee = unsafeBitCast(delayed, to: UnsafeMutableRawPointer.self)
    deck_hook_deadline().pointee = unsafeBitCast(deadline, to: UnsafeMutableRawPointer.self)
  }

  private static func enqueue(_ job: UnownedJob, after delay: TimeAmount?) {
    // Set before the hooks are: never nil here.
    guard let target = loop.withLock({ $0 }) else { preconditionFailure("ClientLoopExecutor has no loop") }
    let run: @Sendable () -> Void = { job.runSynchronously(on: globalConcurrentExecutor.asUnownedTaskExecutor()) }
    if let delay {
      _ = target.scheduleTask(in: delay, run)
    } else {
      // Queued from the loop's own thread, the job runs in the same loop turn: no wake-up.
      target.execute(run)
    }
  }
}
