import DeckCore
import Foundation
import Testing

@testable import DeckQA

/// The HTML report: self-contained, every text escaped, failures first with the rerun
/// command; and a failed expectation shows the output it checked, as Hurl shows a body.
@Suite struct HTMLReportTests {
  static func results() -> [ScenarioResult] {
    var hostile = ReportTests.scenario("b-1", module: "brokerage")
    hostile.title = "<script>alert(1)</script> & <img src=x onerror=alert(2)>"
    var step = ReportTests.step(.failed, message: "jq .[0].name gave \"Keller\", expected \"Compass\"")
    step.stdout = #"[{"name":"Keller <b>Williams</b>"}]"#
    step.checked = "stdout"
    step.expectations = [
      ExpectationOutcome(text: "exit 0", held: true),
      ExpectationOutcome(text: "jq .[0].name equals \"Compass\"", held: false),
      ExpectationOutcome(text: "capture id: .[0].id", held: nil),
    ]
    return [
      ScenarioResult(
        scenario: ReportTests.scenario("a-ok", module: "brokerage"), status: .passed,
        steps: [
          ReportTests.step(.passed, message: nil)
        ], seconds: 1),
      ScenarioResult(scenario: hostile, status: .failed, steps: [step], seconds: 2),
      ScenarioResult(
        scenario: ReportTests.scenario("k-skip", module: "kiosk"), status: .skipped(reason: "not a sandbox"), steps: [],
        seconds: 0),
    ]
  }

  @Test func theReportIsSelfContainedEscapedAndFailuresComeFirst() {
    let html = QAReport(environment: "local", results: Self.results(), seconds: 3.25, timestamp: Date()).html()
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    #expect(html.contains("default-src 'none'"))
    // Nothing to load: no script, no link, no URL.
    for needle in ["<script", "<link", "<img", "http://", "https://", "url("] {
      #expect(!html.contains(needle), "\(needle)")
    }
    #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(2)&gt;"))
    #expect(html.contains("Keller &lt;b&gt;Williams&lt;/b&gt;"))
    #expect(html.contains("1 passed, 1 failed, 1 skipped of 3 scenarios in 3.2 s") || html.contains("in 3.3 s"))
    let failed = html.range(of: "id=\"failures\"")?.lowerBound
    let passed = html.range(of: "id=\"passed\"")?.lowerBound
    let skipped = html.range(of: "id=\"skipped\"")?.lowerBound
    #expect(failed != nil && passed != nil && skipped != nil)
    if let failed, let passed, let skipped { #expect(failed < passed && passed < skipped) }
    #expect(html.contains("deck qa run brokerage --env local --id b-1"))
    #expect(
      html.contains(
        "<li class=\"broke\"><span class=\"mark\">✗</span> <code>jq .[0].name equals &quot;Compass&quot;</code></li>"))
    #expect(html.contains("<li class=\"unchecked\">"))
    #expect(html.contains("exit code <b class=\"exit\">1</b>"))
  }

  /// The failure block shows the output the jq expectation read, truncated.
  @Test func aFailedExpectationShowsTheOutputItChecked() {
    var step = ReportTests.step(.failed, message: "jq .ok gave false, expected true")
    step.actual = "false"
    step.stdout = (1...30).map { "{\"line\": \($0)}" }.joined(separator: "\n")
    step.checked = "stdout"
    let text = QAReport.describe(step)
    #expect(text.contains("actual: false\nstdout, as checked:\n  {\"line\": 1}\n"))
    #expect(text.contains("  {\"line\": 20}\n  … (10 more lines)"))
    #expect(!text.contains("{\"line\": 21}"))
    step.checked = nil
    #expect(!QAReport.describe(step).contains("as checked"))
    // From the checks themselves: a jq value is not the output, so the output is named.
    var expectation = Expectation()
    expectation.jq = [.init(expression: ".[0].name", equals: "\"Compass\"")]
    let failure = StepChecks.check(
      expectation, exitCode: 0, stdout: ReportTests.json, stderr: "", variables: [:])
    #expect(failure?.checked == "stdout" && failure?.index == 1)
    var text2 = Expectation()
    text2.stdout = [.contains("Keller"), .contains("Redfin")]
    let missing = StepChecks.check(text2, exitCode: 0, stdout: ReportTests.json, stderr: "", variables: [:])
    #expect(missing?.checked == nil && missing?.index == 2)
    #expect(
      StepChecks.labels(text2, captures: [.init(name: "id", expression: ".[0].id")])
        == ["exit 0", "stdout contains \"Keller\"", "stdout contains \"Redfin\"", "capture id: .[0].id"])
  }
}
