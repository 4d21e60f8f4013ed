import ArgumentParser
import DeckCore
import DeckSupport
import FoundationEssentials

/// `deck qa run`: scenarios against an environment, in parallel, with a report.
struct QARunCommand: DeckCommand, NamingFiles {
  /// `--allow-writes-outside` names a directory steps may write under; deck writes nothing there itself.
  static let files = FileArguments(writes: ["--out"], reads: ["--data"])

  static let exits: [ExitDoc] = [
    .failure("a scenario failed (an expectation did not hold, or a step could not run)"),
    .usage("a bad scenario file (its file, line and field are named) or a bad option; nothing ran"),
    .unavailable("the environment could not be reached before anything ran"),
  ]

  static let configuration = CommandConfiguration(
    commandName: "run", _superCommandName: "deck",
    abstract: "Run QA scenarios against an environment.",
    discussion: HelpText.discussion(
      """
      Each step runs as its own deck process against --env, with no terminal; each scenario in \
      its own config and state directories (its own accounts), so --jobs N runs N side by side. \
      Scenarios tagged exclusive (they add fault rules or delays) run alone, after the others. \
      Scenarios tagged sandbox are skipped where the environment is not a sandbox; scenarios \
      tagged writes are refused against an environment marked production (production: true; \
      the built-in production) unless --allow-writes.

      A scenario file is code that runs with your rights: run only scenarios you trust. Its \
      steps may not name --env, run qa run, start the REPL or run a script but their own stdin \
      (run -), and write files only under the run's own directory (${WORKDIR}) or a directory \
      --allow-writes-outside names; a bad step is refused before anything runs (docs/QA.md).

      On a terminal, a line per scenario as it ends, then a summary and each failure with its \
      step, the expected and the actual value, and the command that reruns just that scenario. \
      Without a terminal nothing but the report is written: TAP 13 on stdout unless --report \
      and --out say otherwise. Tokens and secret variables are redacted everywhere.

      --data FILE runs each scenario once per row of a CSV file (a header line names the \
      columns) or a YAML list of mappings, with the row's columns as variables; each run's id \
      is the scenario's followed by .row1, .row2, …

      Examples:
        deck qa run                                   every shipped scenario, default environment
        deck qa run prefs --env staging --tag readonly
        deck qa run --env local --jobs 4 --report junit --out qa.xml
        deck qa run my-checks.yaml --id 'checkout-*'
        deck qa run qa/ --report html --out qa.html   every scenario file under qa/
        deck qa run signup.yaml --data accounts.csv
      """, exits: exits))

  @OptionGroup var global: GlobalOptions
  @OptionGroup var selection: ScenarioSelection

  @Option(help: ArgumentHelp("How many scenarios run at once (1-32).", valueName: "n"))
  var jobs = 1

  @Option(
    help: ArgumentHelp("Write a report: junit, tap, json or html (to --out, else stdout).", valueName: "format"),
    completion: .list(QAReport.Format.allCases.map(\.rawValue)))
  var report: String?

  @Option(help: ArgumentHelp("Write the report to this file (atomically).", valueName: "file"), completion: .file())
  var out: String?

  @Option(
    help: ArgumentHelp(
      "Run each scenario once per row of this CSV or YAML file, its columns as variables.", valueName: "file"),
    completion: .file(extensions: ["csv", "yaml", "yml"]))
  var data: String?

  @Flag(help: "Stop starting scenarios after the first failure (the rest are reported as skipped).")
  var failFast = false

  @Flag(help: "Run scenarios tagged writes even against an environment marked production.")
  var allowWrites = false

  @Option(
    name: .customLong("allow-writes-outside"),
    help: ArgumentHelp(
      "Let steps write files under this directory too, not only under the run's own (repeatable).",
      valueName: "dir"), completion: .directory)
  var allowWritesOutside: [String] = []

  func validate() throws {
    guard (1...32).contains(jobs) else { throw ValidationError("--jobs must be between 1 and 32, got \(jobs).") }
    if let report, QAReport.Format(rawValue: report) == nil {
      throw ValidationError("--report takes junit, tap, json or html, got \"\(report)\".")
    }
  }

  func run(_ context: DeckContext) async throws {
    let scenarios = try selection.scenarios(data: data.map(ScenarioData.read))
    guard !scenarios.isEmpty else {
      throw DeckError.usage("No scenario matches.", hint: "See what there is with: deck qa list")
    }
    try JQCheckRunner.validate(scenarios)
    let here = FileManager.default.currentDirectoryPath
    let allowed = allowWritesOutside.map { StepPolicy.normalized($0.hasPrefix("/") ? $0 : here + "/" + $0) }
    let files = context.session.registry.fileArguments
    try StepPolicy(writable: allowed, currentDirectory: here, files: files).validate(scenarios)
    let environment = try context.environment()
    let plan = QARun(
      scenarios: scenarios, definition: environment.definition, jobs: jobs, failFast: failFast,
      allowWrites: allowWrites)
    let output = context.output
    // --json, --format and --jq choose the JSON report, as they choose every command's result.
    let format =
      report.flatMap(QAReport.Format.init(rawValue:))
      ?? (!output.isHuman ? .json : output.stdoutIsTerminal && out == nil ? nil : .tap)
    let toRun = scenarios.filter { plan.skipReason($0) == nil }
    if !toRun.isEmpty {
      let unreachable = try await QAPreflight.unreachable(toRun, context: context)
      if !unreachable.isEmpty {
        throw DeckError(
          .unavailable(status: nil),
          "Could not reach environment \"\(environment.name)\": \(unreachable.joined(separator: "; ")). No scenario ran.",
          hint: "Check it with: deck doctor --env \(environment.name)")
      }
    }
    if environment.definition.isProduction && !allowWrites && scenarios.contains(where: { $0.tags.contains(.writes) }) {
      output.info(
        "\(environment.name) is production: scenarios tagged writes are skipped (give --allow-writes to run them).")
    }
    // The run's private directory: each scenario's config and state, the steps' output.
    let work = try SecureDirectory.makeTemporary(prefix: "deck-qa-")
    defer { try? FileManager.default.removeItem(atPath: work) }
    let runner = ScenarioRunner(
      deck: try Self.deckProgram(), environment: environment.name,
      processEnvironment: context.session.processEnvironment, configFile: context.paths.configFile,
      workDirectory: work, policy: StepPolicy(writable: [work] + allowed, currentDirectory: here, files: files))
    let progress = QAProgress(output: output, environment: environment.name, total: scenarios.count)
    let started = ContinuousClock.now
    let (results, interrupted) = await Interrupts.cancellable { await plan.run(runner) { progress.finished($0) } }
    let seconds = (ContinuousClock.now - started) / .seconds(1)
    progress.summary(results, seconds: seconds)
    let report = QAReport(environment: environment.name, results: results, seconds: seconds, timestamp: Date())
    if format == .json, out == nil, output.jq != nil || (self.report == nil && output.format != .json) {
      // Through the one output path: --jq filters it, --format yaml|csv turns it (JSON itself is
      // the report writer's, which escapes every control character).
      try (self.report == nil ? output : output.formatted(.json, jq: output.jq)).emit(report.document()) {}
    } else if let format {
      let text = report.render(format)
      if let out {
        try AtomicFile.write(Data(text.utf8), to: out)
        if output.stderrIsTerminal { output.info("Report (\(format.rawValue)): \(out)") }
      } else {
        output.writeOut(text)
      }
    }
    let counts = QAReport.counts(results)
    if interrupted || Task.isCancelled {
      throw DeckError(.interrupted, "Interrupted: the running steps were stopped, and cleanup steps ran.")
    }
    if counts.failed + counts.errors > 0 {
      throw DeckError.failure(
        "\(counts.failed + counts.errors) of \(counts.total) scenario\(counts.total == 1 ? "" : "s") failed.")
    }
  }

  /// This deck program: the steps run it.
  static func deckProgram() throws -> String {
    guard let own = LocalProcess.ownExecutable(), LocalProcess.isExecutableFile(own) else {
      throw DeckError.failure("Cannot find deck's own program to run the steps with.", hint: "Reinstall deck.")
    }
    return own
  }
}
