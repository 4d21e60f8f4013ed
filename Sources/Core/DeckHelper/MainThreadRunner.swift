import CHelper
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Runs async work to completion on the main thread alone: the helper's warm-up. Jobs for the
/// global executor, sleeps included, are queued here and run on the main thread (as the global
/// executor's), and the main queue is drained the way a run loop drains it, without
/// Foundation's RunLoop. So no libdispatch worker or timer thread is started: a timer thread
/// never exits, and fork is safe only in a single-threaded process.
public enum MainThreadRunner {
  private static let finished = Atomic<Bool>(false)
  private static let ready = Mutex<[UnownedJob]>([])
  /// Sleeping jobs, by due time on CLOCK_MONOTONIC (seconds).
  private static let sleeping = Mutex<[(due: Double, job: UnownedJob)]>([])
  /// Written when a job is queued from another thread (an event loop resuming a task).
  private static let wakeUp = deck_eventfd()

  /// Runs `body`; returns whether it finished within `timeout`. Call it from the main thread,
  /// outside any task. Jobs left when it returns (a sleep not yet due) never run.
  public static func run(timeout: Duration, _ body: @escaping @MainActor @Sendable () async -> Void) -> Bool {
    finished.store(false, ordering: .sequentiallyConsistent)
    redirectGlobalJobs(true)
    defer {
      redirectGlobalJobs(false)
      ready.withLock { $0.removeAll() }
      sleeping.withLock { $0.removeAll() }
    }
    Task { @MainActor in
      await body()
      finished.store(true, ordering: .sequentiallyConsistent)
    }
    let mainQueue = deck_main_queue_handle()
    let deadline = HelperServer.now() + Double(timeout.components.seconds)
    while !finished.load(ordering: .sequentiallyConsistent), HelperServer.now() < deadline {
      deck_drain_main_queue()
      runQueuedJobs()
      if finished.load(ordering: .sequentiallyConsistent) { break }
      var descriptors = [
        pollfd(fd: mainQueue, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wakeUp, events: Int16(POLLIN), revents: 0),
      ]
      let nextDue = sleeping.withLock { $0.map(\.due).min() }
      let wait = nextDue.map { max(0, min(20, Int32(($0 - HelperServer.now()) * 1000))) } ?? 20
      _ = poll(&descriptors, 2, wait)
      var count: UInt64 = 0
      _ = read(wakeUp, &count, 8)
    }
    deck_drain_main_queue()
    return finished.load(ordering: .sequentiallyConsistent)
  }

  /// Runs every queued job, and every sleeping one that is due, as the global executor's.
  private static func runQueuedJobs() {
    while true {
      let time = HelperServer.now()
      let due = sleeping.withLock { list in
        let due = list.filter { $0.due <= time }.map(\.job)
        list.removeAll { $0.due <= time }
        return due
      }
      let jobs =
        ready.withLock { jobs in
          defer { jobs.removeAll() }
          return jobs
        } + due
      if jobs.isEmpty { return }
      for job in jobs { job.runSynchronously(on: globalConcurrentExecutor.asUnownedTaskExecutor()) }
    }
  }

  private static func queue(_ job: UnownedJob, after seconds: Double?) {
    if let seconds {
      let due = HelperServer.now() + seconds
      sleeping.withLock { $0.append((due, job)) }
    } else {
      ready.withLock { $0.append(job) }
    }
    var one: UInt64 = 1
    _ = write(wakeUp, &one, 8)
  }

  private typealias GlobalHook = @convention(thin) (UnownedJob, UnsafeRawPointer?) -> Void
  private typealias DelayHook = @convention(thin) (UInt64, UnownedJob, UnsafeRawPointer?) -> Void
  private typealias DeadlineHook =
    @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob, UnsafeRawPointer?) -> Void

  private static func redirectGlobalJobs(_ on: Bool) {
    let global: GlobalHook = { job, _ in MainThreadRunner.queue(job, after: nil) }
    let delayed: DelayHook = { nanoseconds, job, _ in MainThreadRunner.queue(job, after: Double(nanoseconds) / 1e9) }
    let deadline: DeadlineHook = { seconds, nanoseconds, _, _, clock, job, _ in
      MainThreadRunner.queue(job, after: deck_seconds_until(seconds, nanoseconds, clock))
    }
    deck_hook_global().pointee = on ? unsafeBitCast(global, to: UnsafeMutableRawPointer.self) : nil
    deck_hook_delay().pointee = on ? unsafeBitCast(delayed, to: UnsafeMutableRawPointer.self) : nil
    deck_hook_deadline().pointee = on ? unsafeBitCast(deadline, to: UnsafeMutableRawPointer.self) : nil
  }
}
