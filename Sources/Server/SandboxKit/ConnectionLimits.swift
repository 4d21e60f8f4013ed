import NIOCore

/// How long a connection may keep the server waiting, so that slow or stalled clients cannot
/// hold its file descriptors: a connection that has sent no complete request head within
/// ``SandboxOptions/connectionTimeout`` of opening (or of its previous response), or whose
/// request body stalls that long, is closed (Hummingbird's idle timeout, which counts from
/// the last request part read; a request being answered is never cut). An early refusal
/// (``BodyLimitMiddleware/refusal(_:closing:)``) closes its connection ``linger`` after the
/// answer, whatever the client still sends.
package enum ConnectionLimits {
  /// The header and idle timeout when the options name none.
  package static let defaultTimeout: Duration = .seconds(15)
  /// How long a refused request's connection stays open after its answer: time for the client
  /// to read it before the rest of its body is cut off.
  static let linger: TimeAmount = .seconds(1)

  /// Closes `channel` ``linger`` from now.
  static func close(_ channel: any Channel) {
    channel.eventLoop.scheduleTask(in: linger) { channel.close(promise: nil) }
  }

  /// Hummingbird's idle timeout for `timeout`.
  static func idleTimeout(_ timeout: Duration) -> TimeAmount {
    let (seconds, attoseconds) = timeout.components
    return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
  }
}
