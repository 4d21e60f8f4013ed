import Testing

@testable import SandboxKit

/// When a served sandbox stops by itself (`IdleExit`). A sandbox deck starts on demand stops
/// when its runtime record is gone, and the record is written only once the server listens:
/// on a loaded machine binding took over a second, the check ran first, and the server stopped
/// itself and announced port 0 (found by 16 parallel first commands beside two busy loops).
@Suite("Idle exit")
struct IdleExitTests {
  @Test func aServerThatHasNotStartedServingIsNotStoppedForAMissingRecordOrIdleness() {
    let idle = IdleExit(timeout: .seconds(2), keepServing: { false })
    let activity = Activity()
    let start = ContinuousClock.now
    #expect(idle.reasonToStop(activity, now: start + .seconds(60)) == nil)

    activity.startServing(now: start + .seconds(60))
    #expect(
      idle.reasonToStop(activity, now: start + .seconds(60))
        == "its runtime record is gone or names another server")
  }

  @Test func theIdleClockStartsWhenTheServerStartsServing() {
    let idle = IdleExit(timeout: .seconds(2))
    let activity = Activity()
    let start = ContinuousClock.now + .seconds(30)
    activity.startServing(now: start)
    #expect(idle.reasonToStop(activity, now: start + .milliseconds(1900)) == nil)
    #expect(idle.reasonToStop(activity, now: start + .seconds(2)) == "idle for 2 s (idle timeout 2 s)")

    activity.begin()
    #expect(idle.reasonToStop(activity, now: start + .seconds(10)) == nil, "a request in flight")
  }
}
