import DeckCore
import DeckSupport
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs scenarios: each step as its own `deck` process against one environment, each scenario
/// in its own config and state directories (its own token store, pairing, caches) and its own
/// scope in a sandbox (its fault rules and delay), so that scenarios running side by side, of
/// this run or another, never see each other's accounts or faults.
struct ScenarioRunner: Sendable {
  /// The deck program the steps run.
  var deck: String
  var environment: String
  /// The caller's environment variables; the steps get them less deck's own selections.
  var processEnvironment: [String: String]
  /// The caller's config.yml, copied into each scenario's config directory when it exists.
  var configFile: String
  /// The run's private working directory (0700); removed by the caller.
  var workDirectory: String
  /// What a step may do; its writable directories include ``workDirectory``.
  var policy: StepPolicy
  /// The run's id in the sandbox: each scenario's steps send `Deck-QA-Run: <runID>/<scenario>`
  /// (``QARunScope``), so that the fault rules and delay it sets stay its own.
  var runID = ScenarioVariables.uniqueToken()

  /// Variables the steps must not inherit: the scenario chooses its own account and environment.
  static let removedVariables = ["DECK_TOKEN", "DECK_ENV", "DECK_CONFIG_DIR", "XDG_CONFIG_HOME", "XDG_STATE_HOME"]

  func run(_ scenario: Scenario, index: Int) async -> ScenarioResult {
    let started = ContinuousClock.now
    let directory = "\(workDirectory)/\(index)"
    let scope = QARunScope.scope(run: runID, scenario: scenario.id)
    var variables = ScenarioVariables.initial(
      for: scenario, environment: environment, processEnvironment: processEnvironment,
      workDirectory: "\(directory)/files", token: ScenarioVariables.uniqueToken)
    let redactor = ReportRedactor(variables: variables, secretNames: scenario.fromEnvironment.map(\.name))
    if let missing = scenario.fromEnvironment.first(where: { variables[$0.name] == nil }) {
      return Self.couldNotStart(
        scenario,
        "from-env: \(missing.variable) is not set (it gives ${\(missing.name)}); set it in the environment deck runs in"
      )
    }
    var steps: [StepResult] = []
    var status = ScenarioResult.Status.passed
    do {
      try prepare(directory)
    } catch {
      let message = (error as? DeckError)?.message ?? "\(error)"
      return Self.couldNotStart(scenario, "cannot prepare the scenario's directory: \(message)")
    }
    for (offset, step) in scenario.steps.enumerated() {
      let number = offset + 1
      guard status == .passed || step.always else {
        steps.append(
          StepResult(
            number: number, line: redactor.redact(step.run), fileLine: step.line, status: .skipped, exitCode: nil,
            seconds: 0))
        continue
      }
      var result: StepResult
      if Task.isCancelled {
        guard step.always else {
          steps.append(
            StepResult(
              number: number, line: redactor.redact(step.run), fileLine: step.line, status: .skipped, exitCode: nil,
              seconds: 0, message: "interrupted"))
          if status == .passed { status = .error }
          continue
        }
        // Cleanup still runs after Ctrl-C, in a task the interruption does not cancel.
        let values = variables
        result = await Task {
          var copy = values
          return await runStep(step, number: number, directory: directory, scope: scope, variables: &copy)
        }.value
      } else {
        result = await runStep(step, number: number, directory: directory, scope: scope, variables: &variables)
      }
      result = redactor.with(variables).redacting(result)
      if result.status == .failed && status == .passed { status = .failed }
      if result.status == .error && status == .passed { status = .error }
      steps.append(result)
    }
    return ScenarioResult(
      scenario: scenario, status: status, steps: steps, seconds: (ContinuousClock.now - started) / .seconds(1))
  }

  /// A scenario that could not start: an error at its first step.
  static func couldNotStart(_ scenario: Scenario, _ message: String) -> ScenarioResult {
    ScenarioResult(
      scenario: scenario, status: .error,
      steps: [
        StepResult(
          number: 1, line: scenario.steps.first?.run ?? "", fileLine: scenario.line, status: .error, exitCode: nil,
          seconds: 0, message: message)
      ], seconds: 0)
  }

  /// The scenario's own config, state and files (`${WORKDIR}`) directories (0700), with the
  /// caller's config.yml.
  func prepare(_ directory: String) throws {
    for path in ["\(directory)/config", "\(directory)/state", "\(directory)/files"] {
      try AtomicFile.ensureDirectory(path)
    }
    if let text = try? String(contentsOfFile: configFile, encoding: .utf8) {
      try AtomicFile.write(Data(text.utf8), to: "\(directory)/config/config.yml", mode: 0o600)
    }
  }

  /// One step: its line expanded and checked against the policy, run as a deck process in the
  /// scenario's directories and scope, its output checked and its captures taken.
  func runStep(
    _ step: Step, number: Int, directory: String, scope: String, variables: inout [String: String]
  ) async -> StepResult {
    let report = StepReport(step: step, number: number, directory: directory, started: .now)
    let prepared: PreparedStep
    switch prepare(step, report: report, variables: variables) {
    case .success(let ready): prepared = ready
    case .failure(let refused): return refused.result
    }
    let exitCode: Int32
    switch await launch(prepared, step: step, report: report, scope: scope) {
    case .success(let code): exitCode = code
    case .failure(let stopped): return stopped.result
    }
    return check(step, exitCode: exitCode, prepared: prepared, report: report, variables: &variables)
  }

  /// A step of a scenario whose directory is `directory`: its files there, and its result as
  /// it is when it ends now.
  struct StepReport {
    var step: Step
    var number: Int
    var directory: String
    var started: ContinuousClock.Instant

    var outputFile: String { "\(directory)/step\(number).out" }
    var errorFile: String { "\(directory)/step\(number).err" }

    func result(_ status: StepResult.Status, exit: Int32? = nil, _ failure: StepChecks.Failure? = nil, line: String)
      -> StepResult
    {
      StepResult(
        number: number, line: line, fileLine: step.line, status: status, exitCode: exit,
        seconds: (ContinuousClock.now - started) / .seconds(1), message: failure?.message, expected: failure?.expected,
        actual: failure?.actual)
    }

    func error(_ message: String, line: String) -> Ended {
      Ended(result: result(.error, StepChecks.Failure(message: message, expected: "", actual: ""), line: line))
    }
  }

  /// A step that ended before its checks: its result.
  struct Ended: Error {
    var result: StepResult
  }

  /// A step ready to run: its words, its line as reported, its stdin file and whether its output
  /// is withheld from the report (it reads a file from outside the run).
  struct PreparedStep {
    var words: [String]
    var shown: String
    var input: String
    var readsOutside: Bool
    /// The step's keys, its variables substituted (empty: not on a terminal).
    var keys: [Step.KeyExchange] = []

    func withheld(_ step: StepResult) -> StepResult { readsOutside ? StepPolicy.withholding(step) : step }
  }

  /// Expands the step's line and stdin, checks them against the policy and writes the stdin file.
  func prepare(_ step: Step, report: StepReport, variables: [String: String])
    -> Result<PreparedStep, Ended>
  {
    var words: [String]
    do {
      words = try ShellWords.expand(step.run, variables: variables)
    } catch {
      return .failure(report.error(error.message, line: step.run))
    }
    if words.first == "deck" { words.removeFirst() }
    let shown = words.map(ShellWords.quote).joined(separator: " ")
    guard !words.isEmpty else { return .failure(report.error("the line names no command", line: shown)) }
    if let stdin = step.stdin, let name = ScenarioVariables.undefined(in: stdin, values: variables).first {
      return .failure(report.error("stdin: ${\(name)} is not defined", line: shown))
    }
    let script = step.stdin.map { ScenarioVariables.substitute($0) { variables[$0] } }
    if let problem = policy.refusal(words, stdin: script, known: true) {
      return .failure(report.error("refused: \(problem)", line: shown))
    }
    var input = "/dev/null"
    if let script {
      input = "\(report.directory)/step\(report.number).in"
      do {
        try AtomicFile.write(Data(script.utf8), to: input, mode: 0o600)
      } catch {
        return .failure(report.error("cannot write the step's stdin: \(error)", line: shown))
      }
    }
    let texts = step.keys.flatMap { [$0.wait, $0.send].compactMap { $0 } }
    if let name = texts.lazy.flatMap({ ScenarioVariables.undefined(in: $0, values: variables) }).first {
      return .failure(report.error("keys: ${\(name)} is not defined", line: shown))
    }
    let keys = step.keys.map { exchange in
      var exchange = exchange
      exchange.wait = exchange.wait.map { ScenarioVariables.substitute($0) { variables[$0] } }
      exchange.send = exchange.send.map { ScenarioVariables.substitute($0) { variables[$0] } }
      return exchange
    }
    return .success(
      PreparedStep(words: words, shown: shown, input: input, readsOutside: policy.readsOutside(words), keys: keys))
  }

  /// Runs the step's deck process in the scenario's config and state directories, with its
  /// scope in `DECK_QA_RUN`: its exit code, or the error that it timed out or was interrupted
  /// (its output withheld as the step's policy says) or could not start.
  func launch(_ prepared: PreparedStep, step: Step, report: StepReport, scope: String) async -> Result<Int32, Ended> {
    var environment = processEnvironment
    for name in Self.removedVariables { environment[name] = nil }
    environment["DECK_CONFIG_DIR"] = "\(report.directory)/config"
    environment["XDG_STATE_HOME"] = "\(report.directory)/state"
    environment[QARunScope.variable] = scope
    if !prepared.keys.isEmpty {
      return await launchOnTerminal(prepared, step: step, report: report, environment: environment)
    }
    do {
      guard
        let code = try await Self.execute(
          deck, arguments: ["--env", self.environment] + prepared.words, environment: environment,
          input: prepared.input, output: report.outputFile, errors: report.errorFile, timeout: step.timeout)
      else {
        let interrupted = Task.isCancelled
        var failed = report.result(
          .error,
          StepChecks.Failure(
            message: interrupted ? "interrupted (stopped)" : "timed out after \(Self.seconds(step.timeout)) (stopped)",
            expected: interrupted ? "" : "an exit within \(Self.seconds(step.timeout))", actual: "still running"),
          line: prepared.shown)
        failed.stderr = Self.read(report.errorFile)
        return .failure(Ended(result: prepared.withheld(failed)))
      }
      return .success(code)
    } catch {
      return .failure(report.error((error as? DeckError)?.message ?? "\(error)", line: prepared.shown))
    }
  }

  /// The step's expectations on its exit code and output, then its captures (into `variables`);
  /// a failure's output withheld as the step's policy says.
  func check(
    _ step: Step, exitCode: Int32, prepared: PreparedStep, report: StepReport, variables: inout [String: String]
  ) -> StepResult {
    let stdout = Self.read(report.outputFile)
    let stderr = Self.read(report.errorFile)
    let labels = StepChecks.labels(step.expect, captures: step.captures)
    func outcome(_ status: StepResult.Status, _ failure: StepChecks.Failure?) -> StepResult {
      var result = report.result(status, exit: exitCode, failure, line: prepared.shown)
      result.stdout = OutputExcerpt.of(stdout)
      result.stderr = OutputExcerpt.of(stderr)
      result.checked = failure?.checked
      result.expectations = labels.enumerated().map { index, text in
        ExpectationOutcome(text: text, held: Self.held(index, failedAt: failure?.index))
      }
      return prepared.withheld(result)
    }
    if let failure = StepChecks.check(
      step.expect, exitCode: exitCode, stdout: stdout, stderr: stderr, variables: variables)
    {
      return outcome(.failed, failure)
    }
    let first = labels.count - step.captures.count
    for (offset, capture) in step.captures.enumerated() {
      switch StepChecks.capture(capture, stdout: stdout, variables: variables) {
      case .success(let value): variables[capture.name] = value
      case .failure(let problem):
        var failure = problem.failure
        failure.index = first + offset
        return outcome(.failed, failure)
      }
    }
    return outcome(.passed, nil)
  }

  /// Whether the expectation at `index` held, when the one at `failed` did not (nil: all
  /// held): those before it held, it did not, and those after it were not checked (nil).
  static func held(_ index: Int, failedAt failed: Int?) -> Bool? {
    guard let failed else { return true }
    if index < failed { return true }
    return index == failed ? false : nil
  }

  /// Runs deck and waits for it, at most `timeout` seconds: its exit code, or nil when it had
  /// to be stopped (SIGTERM to its process group, SIGKILL two seconds later).
  static func execute(
    _ program: String, arguments: [String], environment: [String: String], input: String, output: String,
    errors: String, timeout: Double,
    pause: @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }
  ) async throws -> Int32? {
    let pid = try LocalProcess.spawnChild(
      program, arguments: arguments, environment: environment, input: input, output: output, errors: errors)
    let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
    var interval = Duration.milliseconds(1)
    while ContinuousClock.now < deadline {
      if let code = LocalProcess.exitStatus(pid) { return code }
      if Task.isCancelled { break }
      await pause(interval)
      interval = min(interval * 2, .milliseconds(20))
    }
    // A sleep can resume long after the deadline on a busy machine: a step that ended in time
    // is its exit code, not a timeout.
    if let code = LocalProcess.exitStatus(pid) { return code }
    await stop(pid)
    return nil
  }

  /// Stops a step's process group: SIGTERM, SIGKILL two seconds later; returns once it is reaped.
  static func stop(_ pid: pid_t) async {
    LocalProcess.signalGroup(pid, SIGTERM)
    let grace = ContinuousClock.now + .seconds(2)
    while ContinuousClock.now < grace {
      if LocalProcess.exitStatus(pid) != nil { return }
      try? await Task.sleep(for: .milliseconds(10))
    }
    LocalProcess.signalGroup(pid, SIGKILL)
    while LocalProcess.exitStatus(pid) == nil { try? await Task.sleep(for: .milliseconds(10)) }
  }

  static func seconds(_ value: Double) -> String {
    value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
  }

  /// A step's output file, at most 8 MB of it, as text (invalid UTF-8 replaced).
  static func read(_ path: String) -> String {
    String(decoding: InputFile.bytes(of: path, upTo: 8 << 20) ?? Data(), as: UTF8.self)
  }
}
