import ArgumentParser
import DeckConfig
import DeckCore

/// `deck env`: named environments, each mapping services to base URLs.
public enum EnvModule: DeckModule {
  public static let name = "env"
  public static let summary = "List, show, choose and edit environments."
  public static let services: [Service] = []
  public static var commands: [any ParsableCommand.Type] { [EnvCommand.self] }
}

struct EnvCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "env", abstract: EnvModule.summary,
    discussion: HelpText.discussion(
      """
      An environment maps each backend service (\(Service.allCases.map(\.rawValue).joined(separator: ", "))) to a base URL.
      Precedence: --env, then DECK_ENV, then the config file's current environment, then `sandbox`.
      DECK_<SERVICE>_URL overrides one service's URL.
      """,
      exits: [
        .failure("the config file cannot be read or written, or plain http to a host that is not loopback"),
        .usage("an unknown environment, a bad name, URL or setting (nothing was changed)"),
      ]),
    subcommands: [EnvList.self, EnvShow.self, EnvUse.self, EnvAdd.self, EnvSet.self, EnvRemove.self])
}

/// One environment as `env list` and `env show` print it with --format json, yaml or csv, with
/// camelCase keys as every object deck builds (`allowInsecureHttp` is config.yml's
/// `allow-insecure-http`; each service's name under `services`).
struct EnvironmentView: Encodable {
  var name: String
  var current: Bool
  var builtin: Bool
  var sandbox: Bool
  var production: Bool
  var embedded: Bool
  var allowInsecureHTTP: Bool
  var services: [String: String]

  init(_ definition: EnvironmentDefinition, current: Bool, builtin: Bool) {
    name = definition.name
    self.current = current
    self.builtin = builtin
    sandbox = definition.isSandbox
    production = definition.isProduction
    embedded = definition.isManaged
    allowInsecureHTTP = definition.allowInsecureHTTP
    services = Dictionary(uniqueKeysWithValues: definition.urls.map { ($0.key.rawValue, $0.value) })
  }

  enum CodingKeys: String, CodingKey {
    case name, current, builtin, sandbox, production, embedded, services
    case allowInsecureHTTP = "allowInsecureHttp"
  }
}

/// Names of environments, for completion.
enum EnvironmentNameArgument {
  static let completion = CompletionKind.custom { _, _, prefix in EnvironmentCompletion.names(prefix: prefix) }
}
