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
    /// Which of the step's expectations (``labels(_:captures:)``) did not hold.
    var index = 0
    /// The stream whose output was checked, when `actual` is not that output (a jq value, an
    /// exit code): the report shows the output beside it, as Hurl shows a response's body.
    var checked: String?
  }

  /// The step's expectations as a report lists them, in the order they are checked: the exit
  /// code, the texts, the jq expressions, then the captures (as written, variables unreplaced).
  static func labels(_ expectation: Expectation, captures: [Step.Capture]) -> [String] {
    var labels = ["exit \(expectation.exit)"]
    for (stream, checks) in [("stdout", expectation.stdout), ("stderr", expectation.stderr)] {
      for check in checks {
        switch check {
        case .contains(let text): labels.append("\(stream) contains \"\(text)\"")
        case .notContains(let text): labels.append("\(stream) does not contain \"\(text)\"")
        case .equals(let text): labels.append("\(stream) equals \"\(text)\"")
        case .matches(let pattern): labels.append("\(stream) matches /\(pattern)/")
        }
      }
    }
    for check in expectation.jq {
      labels.append("jq \(check.expression)" + (check.equals.map { " equals \($0)" } ?? ""))
    }
    for capture in captures { labels.append("capture \(capture.name): \(capture.expression)") }
    return labels
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
        actual: "exit \(exitCode)" + (stderr.isEmpty ? "" : ": " + OutputExcerpt.lastLines(stderr, 3)), index: 0,
        checked: stdout.isEmpty ? nil : "stdout")
    }
    var index = 0
    for (stream, text, checks) in [("stdout", stdout, expectation.stdout), ("stderr", stderr, expectation.stderr)] {
      for check in checks {
        index += 1
        if var failure = textFailure(check, stream: stream, text: text, value: value) {
          failure.index = index
          return failure
        }
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
    for (offset, check) in expectation.jq.enumerated() {
      let index = 1 + expectation.stdout.count + expectation.stderr.count + offset
      let expression = value(check.expression)
      let (lines, error) = JQCheckRunner.evaluate(expression, on: json)
      if let error { return jqError(expression, error, stdout, index: index) }
      if let expected = check.equals.map(value) {
        let (compared, compareError) = JQCheckRunner.evaluate("[\(expression)\n] == [\(expected)]", on: json)
        if let compareError { return jqError(expression, compareError, stdout, index: index) }
        if compared != ["true"] {
          return Failure(
            message: "jq \(expression) gave \(shown(lines)), expected \(expected)", expected: expected,
            actual: shown(lines), index: index, checked: "stdout")
        }
      } else if lines != ["true"] {
        return Failure(
          message: "jq \(expression) gave \(shown(lines)), expected true", expected: "true", actual: shown(lines),
          index: index, checked: "stdout")
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
            expected: "a value for \(capture.name)",
            actual: stdout.isEmpty ? "(no output)" : OutputExcerpt.lastLines(stdout, 3),
            checked: stdout.isEmpty ? nil : "stdout")))
    }
    guard let first = lines.first, first != "null", !first.isEmpty else {
      return .failure(
        CaptureFailure(
          failure: Failure(
            message: "capture \(capture.name): jq \(expression) gave \(shown(lines)), so there is no value",
            expected: "a value for \(capture.name)", actual: shown(lines), checked: "stdout")))
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
        actual: OutputExcerpt.of(text))
    case .notContains(let needle):
      let needle = value(needle)
      guard text.contains(needle) else { return nil }
      return Failure(
        message: "\(stream) contains \"\(needle)\"", expected: "does not contain \"\(needle)\"",
        actual: OutputExcerpt.of(text))
    case .equals(let expected):
      let expected = value(expected)
      let actual = text.hasSuffix("\n") ? String(text.dropLast()) : text
      guard actual != expected else { return nil }
      return Failure(message: "\(stream) is not \"\(expected)\"", expected: expected, actual: OutputExcerpt.of(text))
    case .matches(let pattern):
      let pattern = value(pattern)
      guard let regex = try? Regex(pattern) else {
        return Failure(
          message: "\(stream): \"\(pattern)\" is not a valid regular expression", expected: pattern, actual: "")
      }
      guard (try? regex.firstMatch(in: text)) == nil else { return nil }
      return Failure(
        message: "\(stream) does not match /\(pattern)/", expected: "matches /\(pattern)/",
        actual: OutputExcerpt.of(text))
    }
  }

  static func jqError(_ expression: String, _ error: String, _ stdout: String, index: Int) -> Failure {
    let isJSON = JSONValue.isJSON(Data(stdout.utf8))
    return Failure(
      message: "jq \(expression) failed: \(error)",
      expected: isJSON ? "a JSON value jq \(expression) can read" : "JSON output (add --json to the line)",
      actual: stdout.isEmpty ? "(no output)" : OutputExcerpt.of(stdout), index: index)
  }

  static func shown(_ lines: [String]) -> String {
    lines.isEmpty ? "(nothing)" : lines.joined(separator: "\n")
  }
}
