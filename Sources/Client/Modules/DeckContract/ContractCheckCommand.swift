import ArgumentParser
import ContractCheck
import DeckConfig
import DeckCore
import DeckSupport
import FoundationEssentials

/// `deck contract check`: read-only probes of an environment against deck's contracts.
struct ContractCheckCommand: DeckCommand, NamingFiles {
  static let files = FileArguments(writes: ["--out", "--baseline"], reads: ["--fixtures"])

  static let exits: [ExitDoc] = [
    .failure("drift: an answer does not match its contract (findings the baseline accepts do not count)"),
    .usage("a bad option, fixtures file or baseline file (nothing was sent)"),
    .unavailable("the environment could not be reached, or it answered 429 three times in a row"),
    .unauthorized("the signed-in account's session expired and could not be refreshed"),
  ]

  static let configuration = CommandConfiguration(
    commandName: "check", _superCommandName: "deck",
    abstract: "Probe an environment's read-only operations and check every answer against its contract.",
    discussion: HelpText.discussion(
      """
      Sends each GET and HEAD operation of the contracts whose service the environment maps \
      (`deck contract list`), with parameter values from the environment's fixtures file \
      (~/.config/deck/contract/ENV.yml, started by `deck contract fixtures`) or the documents' \
      own examples; an operation with a required value neither gives is skipped. Operations \
      that need a token use the environment's signed-in account; public ones go without one.

      Each answer is checked: the status is documented, the content type is the documented \
      one, documented required headers are there, and the body validates against the \
      response schema. Signed out, the public operations are checked and those that need a \
      token are skipped (sign in to check). A finding names the operation, the JSON path, \
      what the contract says and what came back. 401, 403 and 429 are inconclusive, not drift.

      Safe against production by construction: nothing but GET and HEAD is ever sent (a \
      fixture or --operation naming an operation that writes is refused), at most \
      --max-requests requests at --rate a second, Retry-After is obeyed and three 429s in a \
      row stop the check, redirects are not followed, and tokens never appear in a report.

      A baseline accepts known findings: --baseline FILE --write-baseline records the current \
      ones; with --baseline FILE only new findings fail. An operation whose findings the \
      baseline all accepts shows as accepted (skipped, with the reason, in JUnit), and an entry \
      no answer shows any more is reported as stale.
      """, exits: exits))

  @OptionGroup var global: GlobalOptions

  @Option(
    name: .customLong("service"), help: ArgumentHelp("Only this service's contracts (repeatable).", valueName: "name"))
  var services: [String] = []

  @Option(name: .customLong("operation"), help: ArgumentHelp("Only this operation id (repeatable).", valueName: "id"))
  var operations: [String] = []

  @Option(help: ArgumentHelp("Write the report as junit or json (to --out, else stdout).", valueName: "format"))
  var report: ReportFormat?

  @Option(
    help: ArgumentHelp("Write the report to this file (the summary still shows).", valueName: "file"),
    completion: .file())
  var out: String?

  @Option(
    help: ArgumentHelp("Accepted findings: only findings not in this file fail.", valueName: "file"),
    completion: .file())
  var baseline: String?

  @Flag(help: "Write the current findings to the --baseline file instead of failing on them.")
  var writeBaseline = false

  @Option(
    help: ArgumentHelp("The fixtures file (default: ~/.config/deck/contract/ENV.yml).", valueName: "file"),
    completion: .file())
  var fixtures: String?

  @Option(help: ArgumentHelp("Requests a second, e.g. 2 or 2/s (default 2, at most 50).", valueName: "n/s"))
  var rate: String = "2"

  @Option(help: ArgumentHelp("Send at most this many requests (default 100).", valueName: "n"))
  var maxRequests: Int = 100

  enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case junit, json
  }

  var requestsPerSecond: Double? {
    let number = rate.hasSuffix("/s") ? String(rate.dropLast(2)) : rate
    guard let value = Double(number), value.isFinite, value > 0, value <= 50 else { return nil }
    return value
  }

  func validate() throws {
    guard requestsPerSecond != nil else {
      throw ValidationError("--rate takes requests a second above 0 and at most 50 (e.g. 2 or 0.5/s), got \"\(rate)\".")
    }
    guard (1...10_000).contains(maxRequests) else {
      throw ValidationError("--max-requests must be between 1 and 10000, got \(maxRequests).")
    }
    if writeBaseline, baseline == nil {
      throw ValidationError("--write-baseline writes the --baseline file: give --baseline FILE.")
    }
  }

  func run(_ context: DeckContext) async throws {
    let catalog = try ContractCatalog.embedded()
    let selected = try catalog.operations(services: services, operationIDs: operations)
    for (_, operation) in selected where !operation.isSafe && operations.contains(operation.id) {
      throw DeckError.usage(
        "\(operation.id) is \(operation.method): deck contract check sends only GET and HEAD.",
        hint: "Check it against the sandbox instead (scripts/schemathesis).")
    }
    let environment = try context.environment()
    let all = catalog.entries.flatMap(\.document.operations)
    let fixturesPath =
      fixtures ?? ContractFixtures.path(configDirectory: context.paths.configDirectory, environment: environment.name)
    let loaded = try ContractFixtures.load(
      path: fixturesPath, safeOperations: Set(all.filter(\.isSafe).map(\.id)), allOperations: Set(all.map(\.id)))
    let accepted = try baseline.flatMap { writeBaseline ? nil : try ContractBaseline.load($0) }

    // Signed out, the operations that need a token are skipped ("sign in to check"); signed
    // in, the session is refreshed here if it must be, before anything is sent.
    let signedIn = try ContractProbe.signedIn(context)
    for (entry, operation) in selected where signedIn && operation.isSafe && operation.requiresAuth {
      _ = try await context.client(entry.service, auth: .required) { _, _, _ in () }
      break
    }
    let probe = ContractProbe(
      context: context,
      settings: .init(rate: requestsPerSecond ?? 2, budget: maxRequests),
      fixtures: loaded, fixturesPath: fixturesPath, signedIn: signedIn)
    var run = try await probe.run(selected)

    let sent = run.results.filter { if case .skipped = $0.outcome { false } else { true } }
    if !sent.isEmpty, sent.allSatisfy({ if case .unreachable = $0.outcome { true } else { false } }) {
      let reason = sent.first.flatMap { if case .unreachable(let why) = $0.outcome { why } else { nil } } ?? ""
      throw DeckError(
        .unavailable(status: nil), "Could not reach environment \"\(environment.name)\": \(reason)",
        hint: "Check it with: deck doctor --env \(environment.name)")
    }
    if writeBaseline, let baseline {
      let findings = run.results.flatMap(\.findings)
      let data = try DeckJSON.encoder.encode(ContractBaseline(findings: findings))
      try AtomicFile.write(data, to: baseline)
      context.output.info("Wrote \(findings.count) accepted finding\(findings.count == 1 ? "" : "s") to \(baseline).")
      run.apply(ContractBaseline(findings: findings))
    } else if let accepted {
      run.apply(accepted)
    }
    let result = ContractReport(environment: environment.name, run: run, secrets: Self.secrets(context, environment))
    try write(result, context: context)
    if run.stoppedByRateLimit {
      throw DeckError(
        .unavailable(status: 429), "The check stopped: \(environment.name) answered 429 three times in a row.",
        hint: "Try again later, or with a lower --rate.")
    }
    if result.counts.drifted > 0 {
      throw DeckError.failure(
        "Drift: \(result.counts.findings) finding\(result.counts.findings == 1 ? "" : "s") in \(result.counts.drifted) operation\(result.counts.drifted == 1 ? "" : "s").",
        hint: baseline == nil ? "Accept the known ones with: deck contract check --baseline FILE --write-baseline" : nil
      )
    }
  }

  /// The tokens deck holds for the environment, which no report may show in any form:
  /// `DECK_TOKEN`, the sandbox admin token, and each stored account's access and refresh token.
  static func secrets(_ context: DeckContext, _ environment: ResolvedEnvironment) -> [String] {
    var values = SecretVariables.names.compactMap { context.session.processEnvironment[$0] }
    values += [environment.definition.sandboxAdminToken].compactMap { $0 }
    let accounts = (try? context.tokenStore.accounts(in: environment.name))?.accounts ?? [:]
    for account in accounts.values {
      values += [account.accessToken] + [account.refreshToken].compactMap { $0 }
    }
    return values.filter { !$0.isEmpty }
  }

  /// The report where it was asked for: a file (--out), stdout as JUnit or JSON (--report,
  /// --json, --format), else the table; the summary on stderr when the report went elsewhere.
  func write(_ result: ContractReport, context: DeckContext) throws {
    let output = context.output
    let format = self.report ?? (out != nil ? .json : nil)
    if let format {
      let text: String
      switch format {
      case .junit: text = result.junit()
      case .json: text = try result.json()
      }
      if let out {
        try AtomicFile.write(Data(text.utf8), to: out)
        output.info(result.summary + " Report: \(out)")
      } else {
        output.writeOut(text)
      }
      return
    }
    if output.format == .json, output.jq == nil {
      // The JSON report, as --report json writes it: every control character escaped.
      output.writeOut(try result.json())
      return
    }
    try output.emit(result) {
      output.writeOut(
        result.text { symbol, color in
          output.style(symbol, color == "green" ? .green : color == "red" ? .red : color == "yellow" ? .yellow : .dim)
        })
      output.line(result.summary)
    }
  }
}
