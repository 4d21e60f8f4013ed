import DeckCore
import DeckSupport
import DeckValues
import FoundationEssentials

/// A run's results as JUnit XML, TAP 13, JSON or HTML (QAReport+HTML). Pure: the results are
/// already redacted.
struct QAReport {
  enum Format: String, CaseIterable, Sendable {
    case junit, tap, json, html
  }

  var environment: String
  var results: [ScenarioResult]
  var seconds: Double
  var timestamp: Date

  struct Counts: Equatable {
    var passed = 0
    var failed = 0
    var errors = 0
    var skipped = 0
    var total: Int { passed + failed + errors + skipped }
  }

  static func counts(_ results: [ScenarioResult]) -> Counts {
    var counts = Counts()
    for result in results {
      switch result.status {
      case .passed: counts.passed += 1
      case .failed: counts.failed += 1
      case .error: counts.errors += 1
      case .skipped: counts.skipped += 1
      }
    }
    return counts
  }

  func render(_ format: Format) -> String {
    switch format {
    case .junit: junit()
    case .tap: tap()
    case .json: json()
    case .html: html()
    }
  }

  /// The command that runs just this scenario again.
  static func rerun(_ scenario: Scenario, environment: String) -> String {
    var words = ["deck", "qa", "run", scenario.shipped ? scenario.module : scenario.file, "--env", environment]
    if let data = scenario.data { words += ["--data", data.file] }
    return (words + ["--id", scenario.id]).map(ShellWords.quote).joined(separator: " ")
  }

  /// What went wrong, in a few lines: the step, the expectation, the actual value, and the
  /// output that was checked when the actual value is not that output (a jq value).
  static func describe(_ step: StepResult) -> String {
    var lines = ["step \(step.number) (line \(step.fileLine)): \(step.line)"]
    if let message = step.message { lines.append(message) }
    if let expected = step.expected, !expected.isEmpty { lines.append("expected: \(expected)") }
    if let actual = step.actual, !actual.isEmpty { lines.append("actual: \(actual)") }
    if let output = step.checkedOutput, !output.isEmpty, let stream = step.checked {
      lines.append("\(stream), as checked:")
      lines += checkedExcerpt(output).map { "  " + $0 }
    }
    return lines.joined(separator: "\n")
  }

  /// The start of an output shown beside a failure: at most 20 lines and 1,500 characters.
  static func checkedExcerpt(_ text: String) -> [String] {
    let all = OutputExcerpt.of(text, limit: 1500).split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.init)
    let lines = all.last == "" ? Array(all.dropLast()) : all
    guard lines.count > 20 else { return lines }
    return Array(lines.prefix(20)) + ["… (\(lines.count - 20) more lines)"]
  }

  // MARK: JUnit

  /// One `testsuite` per module, one `testcase` per scenario (classname = module): `failure`
  /// for an expectation that did not hold, `error` for a step that could not run, `skipped`.
  func junit() -> String {
    let all = Self.counts(results)
    var xml = [
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
      "<testsuites name=\"deck qa\" tests=\"\(all.total)\" failures=\"\(all.failed)\" errors=\"\(all.errors)\" time=\"\(Self.time(seconds))\">",
    ]
    let modules = results.map(\.scenario.module).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    let stamp = timestamp.formatted(.iso8601)
    for module in modules {
      let cases = results.filter { $0.scenario.module == module }
      let counts = Self.counts(cases)
      let time = cases.reduce(0) { $0 + $1.seconds }
      xml.append(
        "  <testsuite name=\"\(Self.escape(module))\" tests=\"\(counts.total)\" failures=\"\(counts.failed)\" errors=\"\(counts.errors)\" skipped=\"\(counts.skipped)\" time=\"\(Self.time(time))\" timestamp=\"\(stamp)\">"
      )
      xml.append("    <properties>")
      xml.append("      <property name=\"environment\" value=\"\(Self.escape(environment))\"/>")
      xml.append("    </properties>")
      for result in cases {
        let name = result.scenario.id + (result.scenario.title.isEmpty ? "" : ": " + result.scenario.title)
        let head =
          "    <testcase name=\"\(Self.escape(name))\" classname=\"\(Self.escape(module))\" time=\"\(Self.time(result.seconds))\""
        switch result.status {
        case .passed:
          xml.append(head + "/>")
        case .skipped(let reason):
          xml.append(head + ">")
          xml.append("      <skipped message=\"\(Self.escape(reason))\"/>")
          xml.append("    </testcase>")
        case .failed, .error:
          let element = result.status == .failed ? "failure" : "error"
          xml.append(head + ">")
          if let step = result.problem {
            let type = result.status == .failed ? "expectation" : "step-error"
            var body = Self.describe(step)
            body += "\nscenario: " + result.scenario.place
            body += "\nrerun: " + Self.rerun(result.scenario, environment: environment)
            xml.append(
              "      <\(element) message=\"\(Self.escape("step \(step.number): \(step.message ?? "")"))\" type=\"\(type)\">\(Self.escape(body))</\(element)>"
            )
            if let stdout = step.stdout, !stdout.isEmpty {
              xml.append("      <system-out>\(Self.escape(stdout))</system-out>")
            }
            if let stderr = step.stderr, !stderr.isEmpty {
              xml.append("      <system-err>\(Self.escape(stderr))</system-err>")
            }
          }
          xml.append("    </testcase>")
        }
      }
      xml.append("  </testsuite>")
    }
    xml.append("</testsuites>")
    return xml.joined(separator: "\n") + "\n"
  }

  static func escape(_ text: String) -> String { MarkupText.escape(text) }

  static func time(_ seconds: Double) -> String {
    NumberText.fixed(max(0, seconds), digits: 3)
  }

  // MARK: TAP 13

  /// TAP version 13: a plan, one test line per scenario, a YAML block for each failure, and
  /// `# SKIP` directives.
  func tap() -> String {
    var lines = ["TAP version 13", "1..\(results.count)"]
    for (index, result) in results.enumerated() {
      let number = index + 1
      let name = Self.tapText(result.scenario.id + (result.scenario.title.isEmpty ? "" : " - " + result.scenario.title))
      switch result.status {
      case .passed:
        lines.append("ok \(number) - \(name)")
      case .skipped(let reason):
        lines.append("ok \(number) - \(name) # SKIP \(Self.tapText(reason))")
      case .failed, .error:
        lines.append("not ok \(number) - \(name)")
        lines.append("  ---")
        lines.append("  module: \(Self.yaml(result.scenario.module))")
        lines.append("  severity: \(result.status == .failed ? "fail" : "error")")
        if let step = result.problem {
          lines.append("  step: \(step.number)")
          lines.append("  line: \(step.fileLine)")
          lines.append("  command: \(Self.yaml(step.line))")
          lines.append("  message: \(Self.yaml(step.message ?? ""))")
          if let expected = step.expected, !expected.isEmpty { lines.append("  expected: \(Self.yaml(expected))") }
          if let actual = step.actual, !actual.isEmpty { lines.append("  actual: \(Self.yaml(actual))") }
          if let output = step.checkedOutput, !output.isEmpty, let stream = step.checked {
            lines.append("  \(stream): \(Self.yaml(Self.checkedExcerpt(output).joined(separator: "\n")))")
          }
        }
        lines.append("  file: \(Self.yaml(result.scenario.place))")
        lines.append("  rerun: \(Self.yaml(Self.rerun(result.scenario, environment: environment)))")
        lines.append("  ...")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A TAP description: one line (every control character escaped), and no `#` (it would start
  /// a directive); by scalars, as a TAP reader reads bytes (a `#` with a combining mark after
  /// it is one Character, which a replace of "#" misses).
  static func tapText(_ text: String) -> String {
    var result = ""
    for scalar in ReportText.oneLine(text).unicodeScalars {
      if scalar == "#" { result += "\\" }
      result.unicodeScalars.append(scalar)
    }
    return result
  }

  /// A YAML scalar for the diagnostic block: a JSON string, which YAML reads as a double-quoted
  /// one, with every control character escaped (YAML takes NEL and U+2028 as line breaks).
  static func yaml(_ text: String) -> String { ReportText.json(JSONText.quoted(text)) }

  // MARK: JSON

  struct JSONReport: Encodable {
    var environment: String
    var seconds: Double
    var counts: [String: Int]
    var scenarios: [JSONScenario]
  }

  struct JSONScenario: Encodable {
    var id: String
    var title: String
    var module: String
    var tags: [String]
    var file: String
    var line: Int
    var status: String
    var reason: String?
    var seconds: Double
    var steps: [JSONStep]
    var rerun: String?
  }

  struct JSONStep: Encodable {
    var number: Int
    var line: Int
    var command: String
    var status: String
    var exitCode: Int32?
    var seconds: Double
    var message: String?
    var expected: String?
    var actual: String?
    /// The output a failed expectation checked (``StepResult/checked``), its start.
    var checked: String?
  }

  func json() -> String {
    let data = (try? DeckJSON.encoder.encode(document())) ?? Data("{}".utf8)
    return ReportText.json(String(decoding: data, as: UTF8.self)) + "\n"
  }

  /// The JSON report's document.
  func document() -> JSONReport {
    let counts = Self.counts(results)
    return JSONReport(
      environment: environment, seconds: (seconds * 1000).rounded() / 1000,
      counts: [
        "total": counts.total, "passed": counts.passed, "failed": counts.failed, "errors": counts.errors,
        "skipped": counts.skipped,
      ],
      scenarios: results.map { result in
        var reason: String?
        if case .skipped(let why) = result.status { reason = why }
        return JSONScenario(
          id: result.scenario.id, title: result.scenario.title, module: result.scenario.module,
          tags: result.scenario.tags.sorted().map(\.rawValue), file: result.scenario.file, line: result.scenario.line,
          status: result.status.name, reason: reason, seconds: (result.seconds * 1000).rounded() / 1000,
          steps: result.steps.map {
            JSONStep(
              number: $0.number, line: $0.fileLine, command: $0.line, status: $0.status.rawValue, exitCode: $0.exitCode,
              seconds: ($0.seconds * 1000).rounded() / 1000, message: $0.message, expected: $0.expected,
              actual: $0.actual, checked: $0.checkedOutput.map { Self.checkedExcerpt($0).joined(separator: "\n") })
          },
          rerun: result.status == .passed ? nil : Self.rerun(result.scenario, environment: environment))
      })
  }
}
