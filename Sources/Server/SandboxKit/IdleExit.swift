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

  /// Why the server should stop now, or nil to keep serving. Nothing stops a server that has
  /// not started serving yet: until it listens and has announced itself (written its runtime
  /// record), a missing record is the normal state, not a replaced server.
  func reasonToStop(_ activity: Activity, now: ContinuousClock.Instant = .now) -> String? {
    guard activity.isServing else { return nil }
    if !keepServing() { return "its runtime record is gone or names another server" }
    if let timeout, let idle = activity.idleSince(now: now), idle >= timeout {
      return "idle for \(idle.components.seconds) s (idle timeout \(timeout.components.seconds) s)"
    }
    return nil
  }
}

/// Whether the server serves yet, requests in flight and when the last one ended, for
/// ``IdleExit``.
package final class Activity: Sendable {
  private let state = Mutex<(serving: Bool, inFlight: Int, last: ContinuousClock.Instant)>((false, 0, .now))

  /// The server listens and has announced itself (its URL printed, its record written). The
  /// idle clock starts here, not when the database was opened: binding can take seconds on a
  /// loaded machine.
  func startServing(now: ContinuousClock.Instant = .now) {
    state.withLock {
      $0.serving = true
      $0.last = now
    }
  }

  var isServing: Bool { state.withLock { $0.serving } }

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
