import Dispatch

/// Blocking work that takes a while (libvips decoding and re-encoding a large photo, waiting
/// for the user's editor to exit) on a dispatch queue of its own, so that it does not hold one
/// of Swift's cooperative threads (there are as many as cores: on two, one blocked thread
/// halves what the rest of deck can do).
public enum BlockingWork {
  /// Set on the queues this type makes, so that a test can tell where work ran.
  public static let queueKey = DispatchSpecificKey<String>()

  public static func run<T: Sendable>(named name: String, _ work: @escaping @Sendable () throws -> T) async throws
    -> T
  {
    let queue = queue(named: name)
    return try await withCheckedThrowingContinuation { continuation in
      queue.async { continuation.resume(with: Result { try work() }) }
    }
  }

  /// The same, for work that cannot fail (waiting for a child process).
  public static func run<T: Sendable>(named name: String, _ work: @escaping @Sendable () -> T) async -> T {
    let queue = queue(named: name)
    return await withCheckedContinuation { continuation in queue.async { continuation.resume(returning: work()) } }
  }

  private static func queue(named name: String) -> DispatchQueue {
    let queue = DispatchQueue(label: name)
    queue.setSpecific(key: queueKey, value: name)
    return queue
  }
}
