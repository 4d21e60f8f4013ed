import ArgumentParser
import DeckCore
import DeckSupport
import FoundationEssentials
import SandboxAdminAPI

/// `deck sandbox logs`: the requests the sandbox answered lately, as `stripe logs tail` shows
/// them; `--follow` keeps printing new ones (a long poll: the sandbox holds each read until a
/// request comes or ``SandboxLogs/longestWait`` passes).
struct SandboxLogs: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "logs", _superCommandName: "deck",
    abstract: "Show the requests the sandbox answered lately; --follow keeps showing new ones.",
    discussion: HelpText.discussion(
      """
      The sandbox keeps the last 10000 requests it answered, in memory (a restart starts empty): \
      time, status, method, path and query, latency, the signed-in user (by email, from a valid \
      access token), the fault rule or delay that shaped the answer, the QA run's scope and the \
      request id (every answer's X-Request-Id). No token or password is kept: token query \
      parameters are redacted, and bodies are shown only with --bodies, redacted as \
      --trace=body redacts them (JSON and text/plain only, their first 2048 bytes; an image or \
      another body only as "<n bytes TYPE>"). Operators only: the log is behind the admin \
      token. With --json (or --format), one JSON document per request (JSON Lines). --follow \
      prints the last requests, then each new one as it comes, until Ctrl-C (exit 130, as every \
      interrupted command).

      Examples:
        deck sandbox logs --status 4xx --since 10m
        deck sandbox logs --follow --path '/storage/v1/**' --bodies
        deck sandbox logs --user ann@example.com --json
      """, exits: SandboxOperator.exits + [.usage("a bad filter value, or not a sandbox (nothing was sent)")]))

  @OptionGroup var global: GlobalOptions

  @Flag(name: [.customShort("f"), .long], help: "Keep showing new requests as they come, until Ctrl-C.")
  var follow = false

  @Option(
    help: ArgumentHelp("Only this status (404) or class (2xx, 4xx, 5xx).", valueName: "status"),
    completion: .list(["2xx", "3xx", "4xx", "5xx"]))
  var status: String?

  @Option(
    help: ArgumentHelp("Only this method (GET, POST, …).", valueName: "method"),
    completion: .list(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]))
  var method: String?

  @Option(help: ArgumentHelp("Only paths that match: '*' within one segment, '**' across them.", valueName: "glob"))
  var path: String?

  @Option(help: ArgumentHelp("Only requests of this user (email or id).", valueName: "email"))
  var user: String?

  @Option(help: ArgumentHelp("Only requests of the last DURATION: 30s, 10m, 2h, 1d, 1h30m.", valueName: "duration"))
  var since: String?

  @Option(help: ArgumentHelp("At most this many requests (1-10000; default 100), the latest.", valueName: "n"))
  var limit: Int?

  @Flag(help: "Also the bodies, redacted as --trace=body redacts them.")
  var bodies = false

  /// The longest a read of --follow waits on the sandbox, in seconds (less when --timeout is short).
  static let longestWait = 15

  func validate() throws {
    if let status { _ = try Self.status(status) }
    if let method { _ = try Self.method(method) }
    if let path, !path.hasPrefix("/") || path.utf8.count > 1024 {
      throw ValidationError("--path must start with / (at most 1024 bytes), like '/auth/v1/**'; got \"\(path)\".")
    }
    if let user, user.isEmpty || user.count > 320 {
      throw ValidationError("--user must be an email or a user id (1 to 320 characters).")
    }
    if let since { _ = try Self.seconds(since) }
    if let limit, !(1...10_000).contains(limit) {
      throw ValidationError("--limit must be between 1 and 10000, got \(limit).")
    }
  }

  /// A status or a class, as the sandbox takes it: `404`, `4xx`.
  static func status(_ text: String) throws -> String {
    let lowered = text.lowercased()
    if lowered.count == 3, lowered.hasSuffix("xx"), let first = lowered.first?.wholeNumberValue, (1...5).contains(first)
    {
      return lowered
    }
    if text.count == 3, let code = Int(text), (100...599).contains(code) { return text }
    throw ValidationError("--status must be a status from 100 to 599 or a class (2xx, 4xx, 5xx); got \"\(text)\".")
  }

  /// A method in capitals.
  static func method(_ text: String) throws -> String {
    guard (1...20).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isLetter }) else {
      throw ValidationError("--method must be a method name such as GET or POST; got \"\(text)\".")
    }
    return text.uppercased()
  }

  /// Seconds in a duration: numbers each with a unit (s, m, h, d), e.g. `90s`, `1h30m`, from 1 s to 365 days.
  static func seconds(_ text: String) throws -> Int {
    let problem = ValidationError(
      "--since must be a duration such as 30s, 10m, 2h, 1d or 1h30m (from 1s to 365d); got \"\(text)\".")
    var total = 0
    var digits = ""
    for character in text.lowercased() {
      if character.isASCII, character.isNumber {
        digits.append(character)
        continue
      }
      let unit: Int
      switch character {
      case "s": unit = 1
      case "m": unit = 60
      case "h": unit = 3600
      case "d": unit = 86_400
      default: throw problem
      }
      guard digits.count <= 8, let number = Int(digits) else { throw problem }
      total += number * unit
      digits = ""
    }
    guard digits.isEmpty, (1...31_536_000).contains(total) else { throw problem }
    return total
  }

  func run(_ context: DeckContext) async throws {
    let client = try await SandboxAdmin.client(context)
    let records = context.output.records()
    var query = SandboxAdminAPI.Operations.listLogs.Input.Query(
      status: try status.map(Self.status), method: try method.map(Self.method), path: path, user: user,
      since: try since.map(Self.seconds), limit: limit, bodies: bodies ? true : nil)
    var page = try await client.listLogs(query: query).ok.body.json
    if !follow, page.entries.isEmpty, context.output.isHuman {
      return context.output.info("No requests match.")
    }
    try show(page.entries, records: records, context: context)
    guard follow else { return }
    // Each read waits on the sandbox for the next request, a little less long than --timeout.
    query.wait = max(1, min(Self.longestWait, Int(global.timeout) - 5))
    query.limit = 1000
    while true {
      try Task.checkCancellation()
      query.after = page.next
      page = try await client.listLogs(query: query).ok.body.json
      try show(page.entries, records: records, context: context)
    }
  }

  private func show(
    _ entries: [SandboxAdminAPI.Components.Schemas.LogEntry], records: OutputRecords, context: DeckContext
  ) throws {
    for entry in entries {
      try records.emit(entry) {
        let output = context.output
        let (time, rest) = Self.line(entry)
        output.styledLines([time + "  " + output.style("[\(entry.status)]", Self.style(entry.status)) + " " + rest])
        if let body = entry.requestBody { output.line("  > " + body.replacing("\n", with: "\n    ")) }
        if let body = entry.responseBody { output.line("  < " + body.replacing("\n", with: "\n    ")) }
      }
    }
  }

  /// One request as a line, as `stripe logs tail` shows one, without control characters: its
  /// time, then (after the status) `GET /auth/v1/user  3.1 ms  ann@example.com  …`.
  static func line(_ entry: SandboxAdminAPI.Components.Schemas.LogEntry) -> (time: String, rest: String) {
    var parts = [
      "\(entry.method) \(entry.path)" + (entry.query.map { "?\($0)" } ?? ""),
      NumberText.fixed(entry.latencyMs, digits: 1) + " ms",
    ]
    if let user = entry.user { parts.append(user) }
    if let fault = entry.fault { parts.append("fault \(fault)") }
    if let delay = entry.delay { parts.append("delay \(delay)") }
    if let run = entry.qaRun { parts.append("qa \(run)") }
    parts.append("id \(entry.requestId)")
    return (entry.time.formatted(.iso8601), TerminalText.sanitize(parts.joined(separator: "  ")))
  }

  static func style(_ status: Int) -> Output.Style {
    switch status {
    case 200..<300: .green
    case 300..<400: .cyan
    case 400..<500: .yellow
    default: .red
    }
  }
}
