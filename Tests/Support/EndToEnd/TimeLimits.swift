import Testing

extension Trait where Self == TimeLimitTrait {
  /// The time limit of an end-to-end test or suite: there to stop a hang, never a slow machine.
  ///
  /// The end-to-end tests are synchronous: each holds one of the test process's cooperative
  /// threads while it waits for its child processes, and there are as many threads as cores.
  /// A test's clock starts when it is scheduled, not when it gets a thread, so on two cores a
  /// test queued behind the long suites can use up a limit before it starts: at eight minutes,
  /// with the whole run taking ten, some thirty tests failed so without having run. The limit
  /// is therefore longer than the whole end-to-end run on a slow two-core machine; a real hang
  /// still fails, as does the test run's own deadline in CI.
  package static var endToEndTimeLimit: Self { .timeLimit(.minutes(30)) }
}
