import ArgumentParser
import DeckCore
import DeckSupport
import FoundationEssentials
import SandboxAdminAPI
import SandboxLaunch

struct SandboxStatus: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "status", _superCommandName: "deck",
    abstract: "Show the current environment's sandbox: its process, database and what it holds.",
    discussion: HelpText.discussion(
      """
      In the default environment the local sandbox is started if it is not running, and its
      process is shown too: pid, URL, uptime, idle timeout and log. The QA runs in progress
      are those whose requests the server answered in the last minute (`deck qa run` names
      each run in a header), each with its scenarios and requests so far.
      """, exits: [.failure(), .unavailable("the sandbox cannot be reached or started"), .unauthorized()]))

  @OptionGroup var global: GlobalOptions

  /// The local sandbox's process, as status shows it.
  struct Process: Encodable {
    var pid: Int32
    var url: String
    var database: String
    var startedAt: Date
    var uptimeSeconds: Int
    var idleTimeoutSeconds: Int
    var log: String
  }

  /// The sandbox's info, its delay and fault rules in force, with the local sandbox's process
  /// beside them when there is one.
  struct Status: Encodable {
    var info: Components.Schemas.Info
    var delay: Components.Schemas.Delay
    var faults: [FaultSchema]
    var localSandbox: Process?

    enum CodingKeys: String, CodingKey { case delay, faults, runs, localSandbox }

    func encode(to encoder: any Encoder) throws {
      try SandboxAdmin.InfoView(info).encode(to: encoder)
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(delay, forKey: .delay)
      try container.encode(faults.map(FaultView.init), forKey: .faults)
      try container.encode(info.runs ?? [], forKey: .runs)
      try container.encodeIfPresent(localSandbox, forKey: .localSandbox)
    }
  }

  func run(_ context: DeckContext) async throws {
    let client = try await SandboxAdmin.client(context)
    async let asked = client.info().ok.body.json
    async let delayAsked = client.getDelay().ok.body.json
    async let faultsAsked = client.listFaults().ok.body.json
    let (info, delay, faults) = try await (asked, delayAsked, faultsAsked)
    var process: Process?
    if try context.environment().definition.isManaged {
      let sandbox = context.session.localSandbox
      let record = try await context.session.localSandboxRecord()
      let started = Date(timeIntervalSince1970: record.startedAt)
      process = Process(
        pid: record.pid, url: record.url, database: record.database, startedAt: started,
        uptimeSeconds: max(0, Int(Date().timeIntervalSince(started))), idleTimeoutSeconds: record.idleTimeout,
        log: sandbox.logFile)
    }
    let environment = try context.environment().name
    try context.output.emit(Status(info: info, delay: delay, faults: faults, localSandbox: process)) {
      var rows = SandboxAdmin.rows(info, environment: environment)
      rows.append(("delay", delay.milliseconds == 0 ? "none" : "\(delay.milliseconds) ms on every API response"))
      if faults.isEmpty {
        rows.append(("fault rules", "none"))
      } else {
        rows += faults.map {
          (
            "fault rule \($0.id)",
            "\($0.summary); fired \($0.fired) time\($0.fired == 1 ? "" : "s"); \(FaultView.scopeText($0))"
          )
        }
      }
      let runs = info.runs ?? []
      rows.append(("QA runs", runs.isEmpty ? "none in progress" : "\(runs.count) in progress"))
      rows += runs.map {
        (
          "QA run \(TerminalText.sanitize($0.id))",
          "\($0.scenarios) scenario\($0.scenarios == 1 ? "" : "s"), \($0.requests) request\($0.requests == 1 ? "" : "s"), since \(DurationText.words(max(0, Date().timeIntervalSince($0.startedAt)))) ago"
        )
      }
      if let process {
        rows += [
          ("pid", String(process.pid)), ("url", process.url),
          ("uptime", DurationText.words(Double(process.uptimeSeconds))),
          (
            "idle timeout",
            process.idleTimeoutSeconds == 0 ? "never" : DurationText.words(Double(process.idleTimeoutSeconds))
          ),
          ("log", process.log),
        ]
      }
      context.output.fields(rows)
    }
  }

}

struct SandboxStop: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "stop", _superCommandName: "deck",
    abstract: "Stop the local sandbox that deck started for the default environment.",
    discussion: HelpText.discussion(
      """
      Its data stays in its database; the next command that needs it starts it again. A sandbox
      that `deck sandbox serve` runs stops with Ctrl-C in its terminal instead.
      """, exits: [.failure(), .usage("the environment's sandbox is not one deck started")]))

  @OptionGroup var global: GlobalOptions

  struct Stopped: Encodable {
    var stopped: Bool
    var pid: Int32?
  }

  func run(_ context: DeckContext) async throws {
    let environment = try context.environment()
    guard environment.definition.isManaged else {
      throw DeckError.usage(
        "Environment \"\(environment.name)\" uses a sandbox that deck did not start; deck sandbox stop stops only the local sandbox of the default environment.",
        hint: "Stop a served sandbox with Ctrl-C (or SIGTERM) where `deck sandbox serve` runs.")
    }
    let record = try await context.session.localSandbox.stop()
    try context.output.emit(Stopped(stopped: record != nil, pid: record?.pid)) {
      if let record {
        context.output.line("Stopped the local sandbox (pid \(record.pid)); the next command starts it again.")
      } else {
        context.output.line("The local sandbox is not running.")
      }
    }
  }
}
