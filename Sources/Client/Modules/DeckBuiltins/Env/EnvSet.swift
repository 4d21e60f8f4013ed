import ArgumentParser
import DeckConfig
import DeckCore
import DeckSupport

struct EnvSet: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "set", _superCommandName: "deck",
    abstract: "Set service URLs (SERVICE=URL) or settings of an environment.",
    discussion: HelpText.discussion(
      """
      Services: \(Service.allCases.map(\.rawValue).joined(separator: ", ")). An empty URL (SERVICE=) unsets one.
      Settings: allow-insecure-http=true|false, sandbox=true|false, production=true|false \
      (`deck qa run` refuses scenarios that write to a production environment unless \
      --allow-writes), sandbox-admin-token=TOKEN (the
      admin token `deck sandbox serve` prints, for a sandbox it could not save it for; empty unsets it).
      An environment is production when marked so, or when any service that gets tokens is at the \
      origin (scheme, host, port) of such a service of a production environment; the built-in \
      production always is. A production environment is never a sandbox: production=false or \
      sandbox=true on one that stays production is refused.
      Plain http is allowed only to loopback hosts unless allow-insecure-http is true.
      --all URL sets every service the environment has (all of them when it has none) to URL; when
      URL is a sandbox you started on this machine, its admin token is saved too (see env add --sandbox).
      """,
      exits: [
        .failure("the config file cannot be read or written, or plain http to a host that is not loopback"),
        .usage("an unknown environment, service or setting, or a bad URL (nothing was changed)"),
      ]))

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The environment to change.", completion: EnvironmentNameArgument.completion)
  var name: String

  @Argument(
    help: ArgumentHelp("Assignments such as flyr=https://flyrpro.app.", valueName: "service=url"),
    completion: .list(
      Service.allCases.map { "\($0.rawValue)=" } + [
        "allow-insecure-http=", "sandbox=", "production=", "sandbox-admin-token=",
      ]))
  var assignments: [String] = []

  @Option(
    help: ArgumentHelp(
      "Set every service of the environment to this URL (and save a sandbox's admin token when it is yours).",
      valueName: "url"))
  var all: String?

  func validate() throws {
    guard !assignments.isEmpty || all != nil else {
      throw ValidationError("Give at least one SERVICE=URL, e.g. deck env set \(name) flyr=https://flyrpro.app")
    }
  }

  func run(_ context: DeckContext) async throws {
    let allURL = all.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
    // A sandbox's admin token is looked for before the file is locked (it probes the server).
    let token = try sandboxAdminToken(at: allURL, context: context)
    // Read, check and write under the config file's lock.
    let (file, builtin) = try context.configStore.update { file in
      let builtin = try apply(
        to: &file, allURL: allURL, token: token, processEnvironment: context.session.processEnvironment)
      return (file, builtin)
    }
    let updated =
      EnvironmentResolver(file: file, processEnvironment: [:]).definition(name) ?? EnvironmentDefinition(name: name)
    try context.output.emit(
      EnvironmentView(updated, current: file.current == name, builtin: builtin),
      message: "Updated environment \"\(name)\"\(allURL.map { $0.isEmpty ? "" : ": every service at \($0)" } ?? "").")
    if let token, updated.isSandbox { SandboxPointing.tell(token, environment: name, output: context.output) }
  }

  /// The admin token of the sandbox at `--all`'s URL, looked for when the environment is (or
  /// is made) a sandbox.
  private func sandboxAdminToken(at allURL: String?, context: DeckContext) throws -> SandboxAdminTokenFinder.Outcome? {
    guard let allURL, !allURL.isEmpty else { return nil }
    let file = try context.configStore.load()
    let makesSandbox = assignments.contains { $0.lowercased() == "sandbox=true" }
    guard
      makesSandbox
        || EnvironmentResolver(file: file, processEnvironment: context.session.processEnvironment)
          .definition(name)?.isSandbox == true
    else { return nil }
    return SandboxAdminTokenFinder.live(session: context.session, file: file).find(url: allURL)
  }

  /// Checks the assignments against the environment in `file` and sets them there; whether
  /// the environment is a built-in one.
  private func apply(
    to file: inout ConfigFile, allURL: String?, token: SandboxAdminTokenFinder.Outcome?,
    processEnvironment: [String: String]
  ) throws -> Bool {
    let resolver = EnvironmentResolver(file: file, processEnvironment: processEnvironment)
    guard let current = resolver.definition(name) else {
      throw DeckError.usage("Unknown environment \"\(name)\".", hint: "Add it first: deck env add \(name)")
    }
    guard !(current.isManaged && all != nil) else {
      throw DeckError.usage(
        "\"\(name)\" is the local sandbox, which deck starts itself: it has no URLs to set.",
        hint: "Point another environment at a sandbox: deck env add NAME --sandbox URL")
    }
    var edit = Edit(entry: file.entry(name) ?? ConfigFile.Entry(), allowInsecure: current.allowInsecureHTTP)
    if let allURL {
      // Every service the environment has; all known ones when it has none yet.
      let services = current.urls.isEmpty ? Service.allCases : current.urls.keys.sorted()
      edit.urls = services.map { ($0, allURL) }
    }
    for assignment in assignments { try edit.assign(assignment) }
    if case .found(let candidate) = token, edit.entry.isSandbox ?? current.isSandbox {
      edit.entry.sandboxAdminToken = candidate.token
    }
    try edit.setURLs(environment: name)
    if edit.unmarked || edit.madeSandbox {
      try Self.refuseStayingProduction(name, entry: edit.entry, in: file, unmarked: edit.unmarked)
    }
    file.setEntry(name, edit.entry)
    return resolver.isBuiltin(name)
  }

  /// The environment's entry as the assignments change it.
  private struct Edit {
    var entry: ConfigFile.Entry
    var allowInsecure: Bool
    var urls: [(Service, String)] = []
    var unmarked = false
    var madeSandbox = false

    /// One `KEY=VALUE`: a setting is set at once, a service's URL is kept for `setURLs`.
    mutating func assign(_ assignment: String) throws {
      guard let equals = assignment.firstIndex(of: "=") else {
        throw DeckError.usage(
          "Expected SERVICE=URL, got \"\(assignment)\".", hint: "For example: flyr=https://flyrpro.app")
      }
      let key = String(assignment[..<equals]).lowercased()
      let value = String(assignment[assignment.index(after: equals)...])
      switch key {
      case ConfigFile.sandboxAdminTokenKey:
        guard value.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
          throw DeckError.usage("\(key) must be a token with no spaces.")
        }
        entry.sandboxAdminToken = value.isEmpty ? nil : value
      case "allow-insecure-http", "sandbox", "production":
        guard let flag = Bool(value.lowercased()) else {
          throw DeckError.usage("\(key) must be true or false, got \"\(value)\".")
        }
        set(key, flag)
      default:
        guard let service = Service(rawValue: key) else {
          throw DeckError.usage(
            "Unknown service \"\(key)\".",
            hint:
              "Services: \(Service.allCases.map(\.rawValue).joined(separator: ", ")); settings: allow-insecure-http, sandbox, production, sandbox-admin-token."
          )
        }
        urls.append((service, value))
      }
    }

    private mutating func set(_ key: String, _ flag: Bool) {
      if key == "sandbox" {
        entry.isSandbox = flag
        madeSandbox = flag
      } else if key == "production" {
        entry.isProduction = flag
        unmarked = !flag
      } else {
        entry.allowInsecureHTTP = flag
        allowInsecure = flag
      }
    }

    /// Sets (or, when empty, unsets) each service's URL, checked by `URLPolicy`.
    mutating func setURLs(environment: String) throws {
      for (service, url) in urls {
        if url.isEmpty {
          entry.urls.removeValue(forKey: service)
          continue
        }
        let trimmed = url.hasSuffix("/") ? String(url.dropLast()) : url
        try URLPolicy.validate(trimmed, service: service, environment: environment, allowInsecureHTTP: allowInsecure)
        entry.urls[service] = trimmed
      }
    }
  }

  /// Refuses `production=false` or `sandbox=true` when the environment would still be
  /// production (`ProductionRule`): the setting would change nothing.
  static func refuseStayingProduction(_ name: String, entry: ConfigFile.Entry, in file: ConfigFile, unmarked: Bool)
    throws
  {
    var trial = file
    trial.setEntry(name, entry)
    guard let after = EnvironmentResolver(file: trial, processEnvironment: [:]).definition(name), after.isProduction
    else { return }
    let reason = after.productionReason ?? "it is production"
    let hint =
      if BuiltinEnvironments.named(name)?.isProduction == true {
        "The built-in production environment always is; for another one, copy a non-production environment: deck env add NAME --from staging"
      } else if entry.isProduction == true {
        "Unmark it first: deck env set \(name) production=false"
      } else {
        "Point that service elsewhere first (deck env set \(name) SERVICE=URL); see deck env show \(name)"
      }
    throw DeckError.usage(
      unmarked
        ? "Environment \"\(name)\" stays production: \(reason)."
        : "Environment \"\(name)\" is production (\(reason)), and a production environment is never a sandbox.",
      hint: hint)
  }
}
