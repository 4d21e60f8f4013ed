import ArgumentParser
import DeckContract
import DeckCore
import DeckSupport
import FoundationEssentials
import SandboxAdminAPI

/// `deck sandbox fault`: fault injection in a served sandbox, like toxiproxy for one server.
struct SandboxFault: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fault",
    abstract: "Make the sandbox's APIs fail on purpose: error statuses, latency, resets, broken bodies.",
    discussion: HelpText.discussion(
      """
      Rules match a method and a path pattern (`*` within one segment, `**` across segments) and
      act on every matching API request, the first matching rule first. The operator endpoints
      (/__sandbox/v1, which these commands use) keep working whatever the rules say. Rules live
      in the sandbox's database, shared by every server on it: a restart keeps them, `deck
      sandbox reset` clears them. A rule added by a `deck qa run` step belongs to its scenario
      (scope RUN/SCENARIO): it acts on that scenario's requests only, and list and clear in
      the scenario see its own rules only. A rule added outside a run is global: it acts on
      every request, and clear (without an id) removes the global rules only.
      """, exits: faultExits + [.failure("`clear`: no rule with that id")]),
    subcommands: [FaultAdd.self, FaultList.self, FaultClear.self])
}

typealias FaultSchema = SandboxAdminAPI.Components.Schemas.Fault

/// A rule as `fault list` and `sandbox status` print it: the contract's fields, with `scope`
/// always present (null: a global rule).
struct FaultView: Encodable {
  var rule: FaultSchema

  enum CodingKeys: String, CodingKey { case scope }

  func encode(to encoder: any Encoder) throws {
    try rule.encode(to: encoder)
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(ExplicitNull(wrappedValue: rule.scope), forKey: .scope)
  }

  /// The scope in a table: the QA run's scope, or "global".
  static func scopeText(_ rule: FaultSchema) -> String { rule.scope.map { TerminalText.sanitize($0) } ?? "global" }
}

/// What `deck sandbox fault …` can exit with.
let faultExits: [ExitDoc] = SandboxOperator.exits + [.usage("a bad rule, or not a sandbox (nothing was sent)")]

struct FaultAdd: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "add", _superCommandName: "deck", abstract: "Add a fault rule.",
    discussion: HelpText.discussion(
      """
      Exactly one of --status, --reset, --truncate, --malformed, --drop-field, --retype-field and
      --enum-value, or --latency alone (the real response, late). --latency also delays the
      others. The last three change the shape of the real JSON answer as a drifting backend
      would (what `deck contract check` finds), at the first property of that name: the
      shallowest, array items in order. They fire (and count) only on an answer that has the
      property; one that no answer of the operations the path matches has, by their contracts,
      is refused. Examples:
        deck sandbox fault add '/api/v1/kiosk/**' --status 503 --times 2
        deck sandbox fault add /api/brokerages/search --status 429 --retry-after 1 --times 1
        deck sandbox fault add '/api/**' --method GET --latency 2000 --probability 0.5
        deck sandbox fault add /api/access/state --reset
        deck sandbox fault add /questions/ --method GET --retype-field question --times 1
        deck sandbox fault add /api/access/state --enum-value role=unheard-of
      """, exits: faultExits))

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The path pattern, e.g. '/api/v1/kiosk/**'.", valueName: "path"))
  var path: String

  @Option(help: "Only this method (default: any).")
  var method: FaultMethodArgument = .any

  @Option(help: ArgumentHelp("Answer this HTTP status (100-599) instead.", valueName: "code"))
  var status: Int?

  @Option(help: ArgumentHelp("With --status: send Retry-After with this many seconds.", valueName: "seconds"))
  var retryAfter: Int?

  @Option(help: ArgumentHelp("Wait this long before acting (alone: then answer normally).", valueName: "ms"))
  var latency: Int?

  @Flag(help: "Close the connection with a TCP reset.")
  var reset = false

  @Flag(help: "Send the real response's head and half its body, then close.")
  var truncate = false

  @Flag(help: "Answer 200 with a body that is not valid JSON.")
  var malformed = false

  @Option(help: ArgumentHelp("Answer without the first property of this name.", valueName: "name"))
  var dropField: String?

  @Option(help: ArgumentHelp("Give the first property of this name a value of another type.", valueName: "name"))
  var retypeField: String?

  @Option(
    help: ArgumentHelp("Give the first property NAME the string VALUE (e.g. role=unheard-of).", valueName: "name=value")
  )
  var enumValue: String?

  @Option(help: ArgumentHelp("Fire this many times, then remove the rule (default: until cleared).", valueName: "n"))
  var times: Int?

  @Option(help: ArgumentHelp("Fire with this probability, above 0 and at most 1 (default 1).", valueName: "p"))
  var probability: Double?

  var action: Components.Schemas.FaultAction? {
    if status != nil { return .status }
    if reset { return .reset }
    if truncate { return .truncate }
    if malformed { return .malformed }
    if dropField != nil { return .drop_hyphen_field }
    if retypeField != nil { return .retype_hyphen_field }
    if enumValue != nil { return .enum_hyphen_value }
    return latency == nil ? nil : .latency
  }

  /// The property a shape change acts on, and the value --enum-value gives it.
  var shape: (field: String, value: String?)? {
    if let dropField { return (dropField, nil) }
    if let retypeField { return (retypeField, nil) }
    guard let enumValue, let equals = enumValue.firstIndex(of: "=") else { return nil }
    return (String(enumValue[..<equals]), String(enumValue[enumValue.index(after: equals)...]))
  }

  func validate() throws {
    guard path.hasPrefix("/"), path.utf8.count <= 1024 else {
      throw ValidationError("The path pattern must start with / (e.g. '/api/v1/kiosk/**'), got \"\(path)\".")
    }
    let actions = [status != nil, reset, truncate, malformed, dropField != nil, retypeField != nil, enumValue != nil]
      .filter { $0 }.count
    guard actions <= 1 else {
      throw ValidationError(
        "Give only one of --status, --reset, --truncate, --malformed, --drop-field, --retype-field and --enum-value.")
    }
    guard actions == 1 || latency != nil else {
      throw ValidationError(
        "Say what the rule does: --status CODE, --latency MS, --reset, --truncate, --malformed, --drop-field NAME, --retype-field NAME or --enum-value NAME=VALUE."
      )
    }
    for (flag, name) in [("--drop-field", dropField), ("--retype-field", retypeField)] {
      if let name, name.isEmpty || name.count > 200 {
        throw ValidationError("\(flag) needs a property name of 1 to 200 characters.")
      }
    }
    if let enumValue {
      guard let shape, !shape.field.isEmpty, shape.field.count <= 200, (shape.value ?? "").count <= 200 else {
        throw ValidationError("--enum-value takes NAME=VALUE (e.g. role=unheard-of), got \"\(enumValue)\".")
      }
    }
    if let status, !(100...599).contains(status) {
      throw ValidationError("--status must be between 100 and 599, got \(status).")
    }
    if let retryAfter {
      guard status != nil else { throw ValidationError("--retry-after goes with --status.") }
      guard (0...86_400).contains(retryAfter) else {
        throw ValidationError("--retry-after must be between 0 and 86400 seconds, got \(retryAfter).")
      }
    }
    if let latency, !(0...600_000).contains(latency) {
      throw ValidationError("--latency must be between 0 and 600000 ms, got \(latency).")
    }
    if let times, !(1...1_000_000).contains(times) {
      throw ValidationError("--times must be between 1 and 1000000, got \(times).")
    }
    if let probability, !(probability > 0 && probability <= 1) {
      throw ValidationError("--probability must be above 0 and at most 1, got \(probability).")
    }
  }

  func run(_ context: DeckContext) async throws {
    guard let action else { throw DeckError.usage("Say what the rule does.") }
    if let field = shape?.field { try Self.checkField(field, path: path, method: method) }
    let request = Components.Schemas.FaultRequest(
      method: method.schema, path: path, action: action, field: shape?.field, value: shape?.value, status: status,
      retryAfter: retryAfter, latencyMs: latency,
      times: times, probability: probability)
    let rule = try await SandboxAdmin.client(context).addFault(body: .json(request)).created.body.json
    let scope = rule.scope.map { " (scope \(TerminalText.sanitize($0)): its requests only)" } ?? ""
    try context.output.emit(FaultView(rule: rule), message: "Added fault rule \(rule.id): \(rule.summary)\(scope).")
  }
}

extension FaultAdd {
  /// A shape rule acts only on an answer that has its property: one that no answer of the
  /// operations its path matches has, by their contracts, could never act, so it is refused
  /// (exit 64) with the properties those answers have. A path no contract has, or answers whose
  /// schema leaves the names open, are not checked.
  static func checkField(_ field: String, path: String, method: FaultMethodArgument) throws {
    guard let answers = ContractFields.answers(pattern: path, method: method == .any ? nil : method.rawValue),
      !answers.fields.contains(field)
    else { return }
    let operations =
      answers.operations.count > 3
      ? answers.operations.prefix(3).joined(separator: ", ") + " and \(answers.operations.count - 3) more"
      : answers.operations.joined(separator: ", ")
    let fields =
      answers.fields.count > 30
      ? answers.fields.prefix(30).joined(separator: ", ") + ", …" : answers.fields.joined(separator: ", ")
    throw DeckError.usage(
      "No answer of \(operations) has a property \"\(TerminalText.sanitize(field))\", so the rule would never act; nothing was sent.",
      hint: answers.fields.isEmpty ? "Their answers have no properties." : "Their properties: \(fields).")
  }
}

enum FaultMethodArgument: String, ExpressibleByArgument, CaseIterable {
  case any = "ANY"
  case get = "GET"
  case post = "POST"
  case put = "PUT"
  case patch = "PATCH"
  case delete = "DELETE"

  init?(argument: String) { self.init(rawValue: argument.uppercased()) }

  var schema: Components.Schemas.FaultMethod { Components.Schemas.FaultMethod(rawValue: rawValue) ?? .ANY }
}

struct FaultList: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", _superCommandName: "deck",
    abstract: "List the fault rules in force, in the order they are tried.",
    discussion: HelpText.discussion(
      """
      SCOPE is "global" for a rule added outside a QA run (it acts on every request), else the
      run and scenario that added it (it acts on their requests only). In a `deck qa run` step,
      only the scenario's own rules are listed.
      """, exits: faultExits))

  @OptionGroup var global: GlobalOptions

  @Flag(help: "Also the used-up rules (those that fired their --times), with how often each fired.")
  var all = false

  func run(_ context: DeckContext) async throws {
    let rules = try await SandboxAdmin.client(context).listFaults(query: .init(all: all ? true : nil)).ok.body.json
    try context.output.emit(rules.map(FaultView.init)) {
      if rules.isEmpty { return context.output.info("No fault rules.") }
      context.output.table(
        ["ID", "SCOPE", "RULE", "FIRED"],
        rules.map { ["\($0.id)", FaultView.scopeText($0), $0.summary, "\($0.fired)"] })
    }
  }
}

struct FaultClear: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "clear", _superCommandName: "deck", abstract: "Remove one fault rule, or all of them.",
    discussion: HelpText.discussion(exits: faultExits + [.failure("no rule with that id")]))

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The rule's id (from fault list); without it, every rule.", valueName: "id"))
  var id: Int?

  func run(_ context: DeckContext) async throws {
    let result = try await SandboxAdmin.client(context).clearFaults(body: .json(.init(id: id))).ok.body.json
    try context.output.emit(
      result,
      message: result.cleared == 0
        ? "No fault rules to clear." : "Cleared \(result.cleared) fault rule\(result.cleared == 1 ? "" : "s").")
  }
}
