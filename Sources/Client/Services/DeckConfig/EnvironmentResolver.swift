import DeckSupport

/// Which layer chose the current environment (highest precedence first).
public enum EnvironmentSource: String, Sendable, Equatable {
  case flag = "--env flag"
  case variable = "DECK_ENV"
  case file = "config file"
  case builtinDefault = "default"
}

/// An environment after every layer was applied: the one commands talk to.
public struct ResolvedEnvironment: Sendable, Equatable {
  public var definition: EnvironmentDefinition
  public var source: EnvironmentSource
  /// Service URLs replaced by `DECK_<SERVICE>_URL`.
  public var overriddenServices: Set<Service>

  public var name: String { definition.name }

  public init(definition: EnvironmentDefinition, source: EnvironmentSource, overriddenServices: Set<Service>) {
    self.definition = definition
    self.source = source
    self.overriddenServices = overriddenServices
  }

  /// Where a service lives in this environment.
  public enum Endpoint: Sendable, Equatable {
    case url(String)
    /// The local sandbox, a process deck starts on demand; its URL exists only once it is running.
    case localSandbox
  }

  public func endpoint(for service: Service) throws -> Endpoint {
    if let url = definition.urls[service] { return .url(url) }
    if definition.isManaged { return .localSandbox }
    throw DeckError.configuration(
      "The \(service.rawValue) service has no URL in environment \"\(name)\".",
      hint:
        "Set one with: deck env set \(name) \(service.rawValue)=https://HOST  (or export \(service.overrideVariable)=URL)"
    )
  }
}

/// Applies deck's configuration layers, highest precedence first:
/// the `--env` flag, then `DECK_ENV`, then the config file's `current`, then `sandbox`;
/// for each service URL, `DECK_<SERVICE>_URL`, then the file's entry, then the built-in value.
public struct EnvironmentResolver: Sendable {
  public let file: ConfigFile
  private let variables: [String: String]

  public init(file: ConfigFile, processEnvironment: [String: String]) {
    self.file = file
    self.variables = processEnvironment.filter { $0.key.hasPrefix("DECK_") }
  }

  /// Every environment: built-ins first, then the file's additions, by name.
  public var definitions: [EnvironmentDefinition] {
    let marked = markedDefinitions
    let origins = ProductionRule.origins(of: marked)
    return marked.map { ProductionRule.applied(to: $0, origins: origins) }
  }

  /// One environment's definition: the built-in values, changed by the file's entry, and
  /// production by `ProductionRule`.
  public func definition(_ name: String) -> EnvironmentDefinition? {
    markedDefinition(name).map { ProductionRule.applied(to: $0, origins: productionOrigins) }
  }

  /// Every environment as configured, production only where marked.
  private var markedDefinitions: [EnvironmentDefinition] {
    let added = file.environments.map(\.name).filter { BuiltinEnvironments.named($0) == nil }
    return (BuiltinEnvironments.all.map(\.name) + added).compactMap(markedDefinition)
  }

  /// The origins that make an environment production.
  private var productionOrigins: ProductionRule.Origins { ProductionRule.origins(of: markedDefinitions) }

  /// The built-in values changed by the file's entry. The built-in `production` stays marked
  /// whatever the file says.
  private func markedDefinition(_ name: String) -> EnvironmentDefinition? {
    let builtin = BuiltinEnvironments.named(name)
    let entry = file.entry(name)
    guard builtin != nil || entry != nil else { return nil }
    var definition = builtin ?? EnvironmentDefinition(name: name)
    if let entry {
      definition.urls.merge(entry.urls) { _, new in new }
      if let insecure = entry.allowInsecureHTTP { definition.allowInsecureHTTP = insecure }
      if let sandbox = entry.isSandbox { definition.isSandbox = sandbox }
      if let production = entry.isProduction, builtin?.isProduction != true { definition.isProduction = production }
      definition.sandboxAdminToken = entry.sandboxAdminToken
    }
    if definition.isProduction {
      definition.productionReason =
        builtin?.isProduction == true
        ? "the built-in production environment" : "marked production (production: true in the config file)"
    }
    return definition
  }

  public var isBuiltin: (String) -> Bool { { BuiltinEnvironments.named($0) != nil } }

  /// The environment commands use, with `DECK_<SERVICE>_URL` applied and every URL checked.
  public func resolve(flag: String?) throws -> ResolvedEnvironment {
    let (name, source) = currentName(flag: flag)
    guard var definition = definition(name) else {
      let known = definitions.map(\.name).joined(separator: ", ")
      // A bad `current` in config.yml is a bad config file (exit 1), named with its line; a bad
      // flag or DECK_ENV is a usage error.
      if source == .file {
        throw DeckError.configuration(
          "\(file.currentLocation ?? "The config file"): `current` names an unknown environment, \"\(TerminalText.sanitize(name))\".",
          hint: "Known environments: \(known). Fix `current:` in the file, or choose one with: deck env use NAME")
      }
      throw DeckError(
        .usage, "Unknown environment \"\(TerminalText.sanitize(name))\" (selected by \(source.rawValue)).",
        hint: "Known environments: \(known). Add one with: deck env add \(name) --from local")
    }
    var overridden = Set<Service>()
    for service in Service.allCases {
      let override = variables[service.overrideVariable]
      guard let url = override ?? definition.urls[service] else { continue }
      if override != nil {
        overridden.insert(service)
        if case .failure(let problem) = ParsedURL.parse(url) {
          throw DeckError.configuration(
            "\(service.overrideVariable)=\(TerminalText.sanitize(url)) is not a usable http(s) URL: \(problem.reason).",
            hint: "Fix or unset \(service.overrideVariable).")
        }
      }
      try URLPolicy.validate(
        url, service: service, environment: name, allowInsecureHTTP: definition.allowInsecureHTTP)
      definition.urls[service] = url
    }
    // A DECK_<SERVICE>_URL at a production origin makes the environment production.
    if !overridden.isEmpty { definition = ProductionRule.applied(to: definition, origins: productionOrigins) }
    return ResolvedEnvironment(definition: definition, source: source, overriddenServices: overridden)
  }

  /// The current environment's name, and the layer that chose it.
  public func currentName(flag: String?) -> (String, EnvironmentSource) {
    if let flag { return (flag, .flag) }
    if let variable = variables["DECK_ENV"] { return (variable, .variable) }
    if let current = file.current { return (current, .file) }
    return (BuiltinEnvironments.defaultName, .builtinDefault)
  }
}
