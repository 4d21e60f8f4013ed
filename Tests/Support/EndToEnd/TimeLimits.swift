import Testing

extension Trait where Self == TimeLimitTrait {
  /// The time limit of an end-to-end test or suite: there to stop a hang, never a slow machine.
  ///
  /// The end-to-end tests are synchronous: each holds one of the test process's cooperative
  /// threads while it waits for its child processes, and there are as many threads as cores.
  /// A test's clock starts when it is scheduled, so on two loaded cores a test queued behind
  /// the long suites (crash safety alone takes over four minutes there) ran out of a three
  /// minute limit before it started: with two busy loops beside them, ten tests failed so.
  /// Eight minutes is more than the whole end-to-end run takes on such a machine (5.4 minutes,
  /// all 250 passing), and a real hang still fails CI well within its 45 minutes.
  package static var endToEndTimeLimit: Self { .timeLimit(.minutes(8)) }
}
