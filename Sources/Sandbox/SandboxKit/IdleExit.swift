import Hummingbird
import Synchronization

/// When a served sandbox stops by itself: after `timeout` without a request (none in flight),
/// or as soon as `keepServing` says no (deck's runtime record of it was removed or names
/// another server). Checked every second.
public struct IdleExit: Sendable {
  /// nil: never for idleness.
  public var timeout: Duration?
  public var keepServing: @Sendable () -> Bool

  public init(timeout: Duration?, keepServing: @escaping @Sendable () -> Bool = { true }) {
    self.timeout = timeout
    self.keepServing = keepServing
  }

  /// Why the server should stop now, or nil to keep serving.
  func reasonToStop(_ activity: Activity, now: ContinuousClock.Instant = .now) -> String? {
    if !keepServing() { return "its runtime record is gone or names another server" }
    if let timeout, let idle = activity.idleSince(now: now), idle >= timeout {
      return "idle for \(idle.components.seconds) s (idle timeout \(timeout.components.seconds) s)"
    }
    return nil
  }
}

/// Requests in flight and when the last one ended, for ``IdleExit``.
package final class Activity: Sendable {
  private let state = Mutex<(inFlight: Int, last: ContinuousClock.Instant)>((0, .now))

  func begin() { state.withLock { $0.inFlight += 1 } }

  func end() {
    state.withLock {
      $0.inFlight -= 1
      $0.last = .now
    }
  }

  /// How long the server has had no request; nil while one is in flight.
  func idleSince(now: ContinuousClock.Instant) -> Duration? {
    state.withLock { $0.inFlight > 0 ? nil : now - $0.last }
  }
}

/// Counts every request, operator endpoints and pages included, as activity.
struct ActivityMiddleware<Context: RequestContext>: RouterMiddleware {
  let activity: Activity

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    activity.begin()
    defer { activity.end() }
    return try await next(request, context)
  }
}
