import DeckCore
import Foundation
import Testing

@testable import DeckQA

/// Expectations against what a step did, and the reports a run writes: JUnit validated against
/// the schema (xmllint), TAP 13 parsed by prove, JSON, and redaction.
@Suite struct ReportTests {
  static let json = #"[{"id":"a1","name":"Keller Williams"},{"id":"b2","name":"Compass"}]"#

  @Test func expectationsHoldOrSayWhatDiffers() {
    var expectation = Expectation()
    expectation.jq = [
      .init(expression: "length == 2", equals: nil), .init(expression: ".[1].name", equals: "\"Compass\""),
    ]
    expectation.stdout = [.contains("Keller"), .notContains("Redfin"), .matches("\"id\":\"[a-z]\\d\"")]
    #expect(StepChecks.check(expectation, exitCode: 0, stdout: Self.json, stderr: "", variables: [:]) == nil)

    let wrongExit = StepChecks.check(Expectation(), exitCode: 69, stdout: "", stderr: "error: down\n", variables: [:])
    #expect(wrongExit?.message == "exit code 69, expected 0")
    #expect(wrongExit?.actual == "exit 69: error: down")

    var falseJQ = Expectation()
    falseJQ.jq = [.init(expression: ".[0].name", equals: "\"${want}\"")]
    let failure = StepChecks.check(falseJQ, exitCode: 0, stdout: Self.json, stderr: "", variables: ["want": "Compass"])
    #expect(failure?.message == "jq .[0].name gave Keller Williams, expected \"Compass\"")

    var notJSON = Expectation()
    notJSON.jq = [.init(expression: "length > 0", equals: nil)]
    #expect(
      StepChecks.check(notJSON, exitCode: 0, stdout: "ID  NAME\n", stderr: "", variables: [:])?.expected
        == "JSON output (add --json to the line)")

    var missing = Expectation()
    missing.stderr = [.contains("Sign in")]
    #expect(
      StepChecks.check(missing, exitCode: 0, stdout: "", stderr: "", variables: [:])?.message
        == "stderr does not contain \"Sign in\"")
  }

  @Test func capturesNeedAValue() throws {
    let found = StepChecks.capture(.init(name: "id", expression: ".[1].id"), stdout: Self.json, variables: [:])
    #expect(try found.get() == "b2")
    let missing = StepChecks.capture(.init(name: "id", expression: ".[5].id"), stdout: Self.json, variables: [:])
    guard case .failure(let problem) = missing else {
      Issue.record("a null capture passed")
      return
    }
    #expect(problem.failure.message.contains("capture id: jq .[5].id gave null"))
  }

  static func scenario(_ id: String, module: String) -> Scenario {
    var scenario = Scenario(
      id: id, title: "Title <&> \"quoted\"", module: module, covers: [], tags: [.readonly], generate: [], vars: [],
      steps: [], file: "\(module)/a.yaml", line: 3)
    scenario.shipped = true
    return scenario
  }

  static func step(_ status: StepResult.Status, message: String?) -> StepResult {
    StepResult(
      number: 2, line: "brokerage search kel --json", fileLine: 9, status: status, exitCode: 1, seconds: 0.5,
      message: message, expected: "exit 0", actual: "exit 1: \u{1B}[31mbad\u{7}", stdout: "", stderr: "oops")
  }

  static var results: [ScenarioResult] {
    [
      ScenarioResult(scenario: scenario("b-1", module: "brokerage"), status: .passed, steps: [], seconds: 1.25),
      ScenarioResult(
        scenario: scenario("b-2", module: "brokerage"), status: .failed,
        steps: [step(.passed, message: nil), step(.failed, message: "exit code 1, expected 0")], seconds: 0.5),
      ScenarioResult(
        scenario: scenario("k-1", module: "kiosk"), status: .error,
        steps: [step(.error, message: "timed out after 5 s (stopped)")], seconds: 5),
      ScenarioResult(
        scenario: scenario("k-2 # not a directive", module: "kiosk"), status: .skipped(reason: "not a sandbox"),
        steps: [], seconds: 0),
    ]
  }

  static func write(_ text: String, suffix: String) throws -> String {
    let path = NSTemporaryDirectory() + "deck-qa-report-\(UUID().uuidString)\(suffix)"
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  static func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    // posix_spawn and waitpid (LocalProcess), not Foundation's Process, whose exit report
    // needs a thread of the pool this test blocks.
    let result = try LocalProcess.capture(
      program, arguments: arguments, environment: ProcessInfo.processInfo.environment)
    return (result.status, String(decoding: result.output + result.errors, as: UTF8.self))
  }

  /// One testcase per scenario, classname = module, failure vs error vs skipped, counts per
  /// suite; and the document is valid against the JUnit schema (xmllint, from libxml2-utils).
  @Test func junitIsValidAndSaysWhatHappened() throws {
    let report = QAReport(environment: "local", results: Self.results, seconds: 6.75, timestamp: Date())
    let xml = report.junit()
    let path = try Self.write(xml, suffix: ".xml")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("junit.xsd").path
    let lint = try Self.run("/usr/bin/xmllint", ["--noout", "--schema", schema, path])
    #expect(lint.status == 0, "\(lint.output)\n\(xml)")
    #expect(xml.contains(#"<testsuites name="deck qa" tests="4" failures="1" errors="1" time="6.750">"#))
    #expect(xml.contains(#"<testsuite name="brokerage" tests="2" failures="1" errors="0" skipped="0""#))
    #expect(xml.contains(#"<testsuite name="kiosk" tests="2" failures="0" errors="1" skipped="1""#))
    #expect(
      xml.contains(
        #"<testcase name="b-1: Title &lt;&amp;&gt; &quot;quoted&quot;" classname="brokerage" time="1.250"/>"#))
    #expect(xml.contains(#"<failure message="step 2: exit code 1, expected 0" type="expectation">"#))
    #expect(xml.contains(#"<error message="step 2: timed out after 5 s (stopped)" type="step-error">"#))
    #expect(xml.contains(#"<skipped message="not a sandbox"/>"#))
    #expect(xml.contains("rerun: deck qa run kiosk --env local --id k-1"))
    // Control characters an XML document cannot hold are dropped, not written.
    #expect(!xml.contains("\u{1B}") && !xml.contains("\u{7}"))
  }

  /// TAP 13 that prove parses: the plan, ok / not ok, SKIP directives, YAML diagnostics.
  @Test func tapIsWhatProveReads() throws {
    let report = QAReport(environment: "local", results: Self.results, seconds: 1, timestamp: Date())
    let tap = report.tap()
    #expect(tap.hasPrefix("TAP version 13\n1..4\nok 1 - b-1 - Title"))
    #expect(tap.contains("not ok 2 - b-2"))
    #expect(tap.contains("ok 4 - k-2 \\# not a directive - Title <&> \"quoted\" # SKIP not a sandbox"))
    let path = try Self.write(tap, suffix: ".tap")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let prove = try Self.run("/usr/bin/prove", ["--exec", "cat", path])
    #expect(!prove.output.contains("Parse errors"), "\(prove.output)")
    #expect(prove.output.contains("Failed 2/4 subtests"), "\(prove.output)")
    #expect(prove.output.contains("Tests: 4 Failed: 2"), "\(prove.output)")
    #expect(prove.output.contains("Failed tests:  2-3"), "\(prove.output)")
  }

  @Test func jsonListsEveryScenarioAndStep() throws {
    let report = QAReport(environment: "local", results: Self.results, seconds: 1, timestamp: Date())
    let object = try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any]
    let counts = object?["counts"] as? [String: Int]
    #expect(counts == ["total": 4, "passed": 1, "failed": 1, "errors": 1, "skipped": 1])
    let scenarios = object?["scenarios"] as? [[String: Any]] ?? []
    #expect(scenarios.map { $0["status"] as? String } == ["passed", "failed", "error", "skipped"])
    #expect(scenarios[3]["reason"] as? String == "not a sandbox")
    let steps = scenarios[1]["steps"] as? [[String: Any]] ?? []
    #expect(steps.map { $0["status"] as? String } == ["passed", "failed"])
  }

  /// A step that runs past its timeout is stopped, with whatever it started in its process
  /// group, and reported as not finished (nil), not as an exit code.
  @Test func aStepPastItsTimeoutIsStopped() async throws {
    let directory = NSTemporaryDirectory() + "deck-qa-timeout-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // No bound on the wall time: the runner's timer is a task, and the test process's two
    // cooperative threads are busy with hundreds of other tests at first, so how soon it fires
    // measures the test run. Had the runner waited, the step would have exited 0 after five minutes;
    // had it stopped the shell alone, the background sleep would live on.
    let code = try await ScenarioRunner.execute(
      "/bin/sh", arguments: ["-c", "sleep 300 & echo $! > \(directory)/background; sleep 300"], environment: [:],
      input: "/dev/null", output: directory + "/out", errors: directory + "/err", timeout: 0.3)
    #expect(code == nil)
    let background = try #require(
      Int32(ScenarioRunner.read(directory + "/background").trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(await Self.ends(background), "the step's background process outlived its timeout")
    let quick = try await ScenarioRunner.execute(
      "/bin/sh", arguments: ["-c", "echo hi; exit 7"], environment: [:], input: "/dev/null", output: directory + "/out",
      errors: directory + "/err", timeout: 10)
    #expect(quick == 7)
    #expect(ScenarioRunner.read(directory + "/out") == "hi\n")
  }

  /// A step that ended before its deadline, noticed only after it because the runner's sleep
  /// resumed late (a busy machine), is its exit code, not a timeout.
  @Test func aStepThatEndedInTimeIsNotATimeoutWhenNoticedLate() async throws {
    let directory = NSTemporaryDirectory() + "deck-qa-late-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let code = try await ScenarioRunner.execute(
      "/bin/sh", arguments: ["-c", "sleep 0.1; exit 7"], environment: [:], input: "/dev/null",
      output: directory + "/out", errors: directory + "/err", timeout: 0.5,
      pause: { _ in try? await Task.sleep(for: .seconds(1)) })
    #expect(code == 7)
  }

  /// Whether process `pid` is gone (or a zombie) within a minute.
  private static func ends(_ pid: Int32) async -> Bool {
    for _ in 0..<600 {
      if !LocalProcess.isAlive(pid) { return true }
      try? await Task.sleep(for: .milliseconds(100))
    }
    return false
  }

  @Test func secretsAreRedactedAsTraceDoes() {
    let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJlLXZhbHVl"
    let redactor = ReportRedactor(variables: ["password": "Corr3ct-Horse", "owner": "a@example.test"])
      .with(["accessToken": "tok-123456"])
    let text = redactor.redact(
      #"login Corr3ct-Horse {"access_token":"zzz"} Bearer abcdefghijkl \#(jwt) tok-123456 ?token=qq a@example.test"#)
    #expect(!text.contains("Corr3ct-Horse"))
    #expect(!text.contains("zzz") && !text.contains("abcdefghijkl") && !text.contains(jwt))
    #expect(!text.contains("tok-123456") && !text.contains("qq"))
    #expect(text.hasSuffix(" a@example.test"), "\(text)")
  }
}
