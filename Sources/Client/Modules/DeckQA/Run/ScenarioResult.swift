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
  /// The start of stdout and stderr (redacted; withheld where the step reads a file from
  /// outside the run).
  public var stdout: String?
  public var stderr: String?
  /// The stream a failed expectation checked when `actual` is not its output (a jq value):
  /// "stdout" or "stderr", shown beside the failure.
  public var checked: String?
  /// Its expectations, in the order they were checked, with what came of each.
  public var expectations: [ExpectationOutcome] = []

  /// The output named by ``checked``.
  public var checkedOutput: String? {
    switch checked {
    case "stdout": stdout
    case "stderr": stderr
    default: nil
    }
  }
}

/// One expectation of a step as a report shows it: its text (as written) and whether it held
/// (nil: not checked, because an earlier one did not hold or the step did not finish).
public struct ExpectationOutcome: Sendable, Equatable {
  public var text: String
  public var held: Bool?
}
