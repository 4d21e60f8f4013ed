import ArgumentParser
import DeckConfig
import DeckCore
import DeckSupport

struct EnvShow: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "show", _superCommandName: "deck",
    abstract: "Show an environment's service URLs (the current one by default).",
    discussion: HelpText.discussion(exits: [
      .failure("the config file cannot be read"), .usage("an unknown environment"),
    ]))

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The environment to show.", completion: EnvironmentNameArgument.completion)
  var name: String?

  func run(_ context: DeckContext) async throws {
    let resolver = try context.resolver()
    let selected = context.options.env ?? context.session.sessionEnvironment.withLock { $0 }
    let (currentName, source) = resolver.currentName(flag: selected)
    let target = name ?? currentName
    // The current environment is shown as commands see it: DECK_<SERVICE>_URL applied.
    let resolved: ResolvedEnvironment
    if target == currentName {
      resolved = try resolver.resolve(flag: selected)
    } else {
      guard let definition = resolver.definition(target) else {
        throw DeckError.usage(
          "Unknown environment \"\(target)\".",
          hint: "Known environments: \(resolver.definitions.map(\.name).joined(separator: ", ")).")
      }
      resolved = ResolvedEnvironment(definition: definition, source: .file, overriddenServices: [])
    }
    let definition = resolved.definition
    try context.output.emit(
      EnvironmentView(definition, current: target == currentName, builtin: resolver.isBuiltin(target))
    ) {
      context.output.fields(fields(resolved, selectedBy: target == currentName ? source : nil, context: context))
    }
  }

  /// The environment as `env show` lists it: each service's URL (and the modules that use it).
  private func fields(_ resolved: ResolvedEnvironment, selectedBy source: EnvironmentSource?, context: DeckContext)
    -> [(String, String)]
  {
    let definition = resolved.definition
    var rows: [(String, String)] = [("environment", definition.name)]
    if let source { rows.append(("selected by", source.rawValue)) }
    for service in Service.allCases {
      var value: String
      if let url = definition.urls[service] {
        value = url
        if resolved.overriddenServices.contains(service) { value += "  (from \(service.overrideVariable))" }
      } else if definition.isManaged {
        value = "local sandbox (deck-sandbox, started on demand)"
      } else {
        value = "(not set)"
      }
      let users = context.session.registry.modules(using: service)
      if !users.isEmpty { value += "  (\(users.joined(separator: ", ")))" }
      rows.append((service.rawValue, value))
    }
    rows.append(("sandbox", definition.isSandbox ? "yes" : "no"))
    if definition.isProduction {
      rows.append(("production", "yes" + (definition.productionReason.map { " (\($0))" } ?? "")))
    }
    if definition.allowInsecureHTTP { rows.append(("allow-insecure-http", "true")) }
    if definition.sandboxAdminToken != nil { rows.append(("sandbox-admin-token", "(set; not shown)")) }
    return rows
  }
}
