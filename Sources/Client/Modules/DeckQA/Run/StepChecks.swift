import DeckSupport
import DeckValues
import FoundationEssentials

/// A step's expectations against what it did: pure, so every rule is unit-tested.
enum StepChecks {
  /// The first expectation that does not hold: a message, the expected and the actual value.
  struct Failure: Equatable {
    var message: String
    var expected: String
    var actual: String
  }

  /// Checks the exit code, the texts and the jq expressions, in that order. Text and values may
  /// hold `${NAME}`, replaced from `variables`.
  static func check(
    _ expectation: Expectation, exitCode: Int32, stdout: String, stderr: String, variables: [String: String]
  ) -> Failure? {
    func value(_ text: String) -> String { ScenarioVariables.substitute(text) { variables[$0] } }
    if exitCode != expectation.exit {
      return Failure(
        message: "exit code \(exitCode), expected \(expectation.exit)", expected: "exit \(expectation.exit)",
        actual: "exit \(exitCode)" + (stderr.isEmpty ? "" : ": " + lastLines(stderr, 3)))
    }
    for (stream, text, checks) in [("stdout", stdout, expectation.stdout), ("stderr", stderr, expectation.stderr)] {
      for check in checks {
        if let failure = textFailure(check, stream: stream, text: text, value: value) { return failure }
      }
    }
    guard !expectation.jq.isEmpty else { return nil }
    let json = Data(stdout.utf8)
    // One program for every check (each gives true or false); each check alone only to
    // describe the one that did not hold.
    let programs = expectation.jq.map { check -> String in
      let expression = value(check.expression)
      if let expected = check.equals.map(value) { return "([\(expression)\n] == [\(expected)])" }
      return "([\(expression)\n] == [true])"
    }
    let combined = "[" + programs.joined(separator: ", ") + "] | all"
    if JQCheckRunner.evaluate(combined, on: json) == (["true"], nil) { return nil }
    for check in expectation.jq {
      let expression = value(check.expression)
      let (lines, error) = JQCheckRunner.evaluate(expression, on: json)
      if let error { return jqError(expression, error, stdout) }
      if let expected = check.equals.map(value) {
        let (compared, compareError) = JQCheckRunner.evaluate("[\(expression)\n] == [\(expected)]", on: json)
        if let compareError { return jqError(expression, compareError, stdout) }
        if compared != ["true"] {
          return Failure(
            message: "jq \(expression) gave \(shown(lines)), expected \(expected)", expected: expected,
            actual: shown(lines))
        }
      } else if lines != ["true"] {
        return Failure(
          message: "jq \(expression) gave \(shown(lines)), expected true", expected: "true", actual: shown(lines))
      }
    }
    return nil
  }

  /// A capture's value: the expression's single result (a string raw), or why there is none.
  static func capture(_ capture: Step.Capture, stdout: String, variables: [String: String]) -> Result<
    String, CaptureFailure
  > {
    let expression = ScenarioVariables.substitute(capture.expression) { variables[$0] }
    let (lines, error) = JQCheckRunner.evaluate(expression, on: Data(stdout.utf8))
    if let error {
      return .failure(
        CaptureFailure(
          failure: Failure(
            message: "capture \(capture.name): jq \(expression) failed: \(error)",
            expected: "a value for \(capture.name)", actual: stdout.isEmpty ? "(no output)" : lastLines(stdout, 3))))
    }
    guard let first = lines.first, first != "null", !first.isEmpty else {
      return .failure(
        CaptureFailure(
          failure: Failure(
            message: "capture \(capture.name): jq \(expression) gave \(shown(lines)), so there is no value",
            expected: "a value for \(capture.name)", actual: shown(lines))))
    }
    return .success(first)
  }

  struct CaptureFailure: Error, Equatable {
    var failure: Failure
  }

  static func textFailure(
    _ check: Expectation.TextCheck, stream: String, text: String, value: (String) -> String
  ) -> Failure? {
    switch check {
    case .contains(let needle):
      let needle = value(needle)
      guard !text.contains(needle) else { return nil }
      return Failure(
        message: "\(stream) does not contain \"\(needle)\"", expected: "contains \"\(needle)\"",
        actual: excerpt(text))
    case .notContains(let needle):
      let needle = value(needle)
      guard text.contains(needle) else { return nil }
      return Failure(
        message: "\(stream) contains \"\(needle)\"", expected: "does not contain \"\(needle)\"", actual: excerpt(text))
    case .equals(let expected):
      let expected = value(expected)
      let actual = text.hasSuffix("\n") ? String(text.dropLast()) : text
      guard actual != expected else { return nil }
      return Failure(message: "\(stream) is not \"\(expected)\"", expected: expected, actual: excerpt(text))
    case .matches(let pattern):
      let pattern = value(pattern)
      guard let regex = try? Regex(pattern) else {
        return Failure(
          message: "\(stream): \"\(pattern)\" is not a valid regular expression", expected: pattern, actual: "")
      }
      guard (try? regex.firstMatch(in: text)) == nil else { return nil }
      return Failure(
        message: "\(stream) does not match /\(pattern)/", expected: "matches /\(pattern)/", actual: excerpt(text))
    }
  }

  static func jqError(_ expression: String, _ error: String, _ stdout: String) -> Failure {
    let isJSON = JSONValue.isJSON(Data(stdout.utf8))
    return Failure(
      message: "jq \(expression) failed: \(error)",
      expected: isJSON ? "a JSON value jq \(expression) can read" : "JSON output (add --json to the line)",
      actual: stdout.isEmpty ? "(no output)" : excerpt(stdout))
  }

  static func shown(_ lines: [String]) -> String {
    lines.isEmpty ? "(nothing)" : lines.joined(separator: "\n")
  }

  /// At most 2,000 characters of `text`, the start kept.
  static func excerpt(_ text: String, limit: Int = 2000) -> String {
    if text.isEmpty { return "(empty)" }
    guard text.count > limit else { return text }
    return String(text.prefix(limit)) + "… (\(text.count - limit) more characters)"
  }

  static func lastLines(_ text: String, _ count: Int) -> String {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: true).suffix(count)
    return excerpt(lines.joined(separator: "\n"), limit: 600)
  }
}
