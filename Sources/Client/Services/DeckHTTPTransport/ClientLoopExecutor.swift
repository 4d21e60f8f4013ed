import NIOCore

/// deck's client event loop as a Swift task executor (the public `TaskExecutor` API). Script
/// mode runs its lines with a preference for it: a line's parse, its request and the answer's
/// body then all run on the loop's thread, where async-http-client does its I/O, instead of
/// handing each step between the loop and the cooperative pool (bench/README.md).
///
/// Code running on it must not block waiting for the loop (NIO's `wait()` traps there); deck's
/// blocking work (an editor, a child process, a large photo) runs on queues of its own
/// (`BlockingWork`) and awaits them.
public final class ClientLoopExecutor: TaskExecutor {
  let loop: any EventLoop

  /// The executor of deck's one client event loop (``HTTPTransportFactory/eventLoopGroup``).
  public static let shared = ClientLoopExecutor(loop: HTTPTransportFactory.eventLoopGroup.next())

  init(loop: any EventLoop) {
    self.loop = loop
  }

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    loop.execute { job.runSynchronously(on: executor) }
  }

  /// Whether the caller runs on the loop's thread.
  public var isCurrent: Bool { loop.inEventLoop }
}
