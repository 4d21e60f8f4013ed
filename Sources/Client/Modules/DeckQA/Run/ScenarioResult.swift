/// What running one scenario came to.
public struct ScenarioResult: Sendable {
  public enum Status: Sendable, Equatable {
    case passed
    /// An expectation did not hold.
    case failed
    /// A step could not run (a timeout, an undefined variable, deck could not start).
    case error
    case skipped(reason: String)

    public var name: String {
      switch self {
      case .passed: "passed"
      case .failed: "failed"
      case .error: "error"
      case .skipped: "skipped"
      }
    }
  }

  public var scenario: Scenario
  public var status: Status
  public var steps: [StepResult]
  public var seconds: Double

  /// The step that failed or could not run, first.
  public var problem: StepResult? { steps.first { $0.status == .failed || $0.status == .error } }
}

/// One step as it ran.
public struct StepResult: Sendable, Equatable {
  public enum Status: String, Sendable {
    case passed, failed, error, skipped
  }

  /// 1-based, as the report says it.
  public var number: Int
  /// The step's line as written, with variables replaced and secrets redacted.
  public var line: String
  /// Its line in the scenario file.
  public var fileLine: Int
  public var status: Status
  public var exitCode: Int32?
  public var seconds: Double
  /// What went wrong: a sentence, the expected and the actual value (redacted).
  public var message: String?
  public var expected: String?
  public var actual: String?
  /// The tail of stdout and stderr (redacted), for a failed step.
  public var stdout: String?
  public var stderr: String?
}
