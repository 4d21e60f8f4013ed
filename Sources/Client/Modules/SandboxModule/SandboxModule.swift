import ArgumentParser
import DeckConfig
import DeckCore
import DeckSupport
import FoundationEssentials
import HTTPTypes
import OpenAPIRuntime
import SandboxAdminAPI

/// `deck sandbox`: serve the sandbox, and operate the one the current environment points at.
public enum SandboxModule: DeckModule {
  public static let name = "sandbox"
  public static let summary = "Serve the sandbox backend, and seed, reset or inspect it."
  /// The core operator endpoints are on the auth service's URL (the core's own service, which
  /// every sandbox serves); features' are on their own services' URLs.
  public static let services: [Service] = [.auth]
  public static var commands: [any ParsableCommand.Type] { [SandboxCommand.self] }
}

struct SandboxCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "sandbox", abstract: SandboxModule.summary,
      discussion: HelpText.discussion(
        """
        The sandbox implements every backend contract on SQLite. In the `sandbox` environment (the
        default) deck starts it on demand as a background process, deck-sandbox, which exits after
        15 idle minutes (DECK_SANDBOX_IDLE_TIMEOUT, in seconds; 0: never); `deck sandbox status`
        shows it and `deck sandbox stop` stops it. `deck sandbox serve` serves it for other clients
        (the `local` environment).
        The operator commands act on the sandbox of the current environment, through admin endpoints
        under /__sandbox that only the sandbox serves; they refuse environments that are not sandboxes.
        """,
        exits: SandboxOperator.exits + [
          .failure("failure: the sandbox could not start, or what an operator command names does not exist"),
          .rejected("what an operator command makes exists already"),
          .unavailable("the sandbox cannot be reached or started"),
        ]),
      subcommands: [
        SandboxServe.self, SandboxStatus.self, SandboxStop.self, SandboxSeed.self, SandboxReset.self, SandboxDelay.self,
        SandboxLogs.self,
        SandboxTrigger.self, SandboxInspect.self,
      ] + DeckRegistry.current.sandboxCommands.other + [SandboxFault.self])
  }
}

/// The core operator endpoints of the current environment's sandbox (SandboxAdminAPI). Nothing
/// is sent to an environment that is not marked as a sandbox (see ``SandboxOperator``).
enum SandboxAdmin {
  static func client(_ context: DeckContext) async throws -> SandboxAdminAPI.Client {
    try await SandboxOperator.client(context, path: "/__sandbox/v1") {
      SandboxAdminAPI.Client(serverURL: $0, transport: $1, middlewares: $2)
    }
  }

  /// A sandbox's info as `--json` shows it: deck's keys, camelCase (the operator contract's
  /// `anon_key` is `anonKey`); `counts` is a map of labels.
  struct InfoView: Encodable {
    var sandbox: Bool
    var version: String
    var counts: [String: Int]
    var database: String?
    var anonKey: String

    init(_ info: Components.Schemas.Info) {
      sandbox = info.sandbox
      version = info.version
      counts = info.counts.additionalProperties
      database = info.database
      anonKey = info.anon_key
    }
  }

  static func show(_ info: Components.Schemas.Info, context: DeckContext, message: String?) throws {
    let environment = try context.environment().name
    try context.output.emit(InfoView(info)) {
      if let message { context.output.info(message) }
      context.output.fields(rows(info, environment: environment))
    }
  }

  /// The table rows of a sandbox's info.
  static func rows(_ info: Components.Schemas.Info, environment: String) -> [(String, String)] {
    var rows: [(String, String)] = [("environment", environment)]
    if let database = info.database { rows.append(("database", database)) }
    rows += info.counts.additionalProperties.sorted { $0.key < $1.key }.map { ($0.key, "\($0.value)") }
    rows.append(("anon key", info.anon_key))
    return rows
  }
}
