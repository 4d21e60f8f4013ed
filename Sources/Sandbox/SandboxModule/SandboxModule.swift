import ArgumentParser
import DeckConfig
import DeckCore
import DeckSupport
import Foundation
import OpenAPIRuntime
import SandboxAdminAPI

/// `deck sandbox`: serve the sandbox, and operate the one the current environment points at.
public enum SandboxModule: DeckModule {
  public static let name = "sandbox"
  public static let summary = "Serve the sandbox backend, and seed, reset or inspect it."
  public static let services: [Service] = [.flyr]
  public static var commands: [any ParsableCommand.Type] { [SandboxCommand.self] }
}

struct SandboxCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sandbox", abstract: SandboxModule.summary,
    discussion: """
      The sandbox implements every backend contract on SQLite. In the `sandbox` environment deck
      runs it in-process; `deck sandbox serve` serves it for other clients (the `local` environment).
      The operator commands act on the sandbox of the current environment, through admin endpoints
      under /__sandbox that only the sandbox serves; they refuse environments that are not sandboxes.
      """,
    subcommands: [
      SandboxServe.self, SandboxStatus.self, SandboxSeed.self, SandboxReset.self, SandboxDelay.self,
      SandboxTrigger.self, SandboxInspect.self, SandboxOutbox.self,
    ])
}

/// The admin client for the current environment's sandbox. Nothing is sent to an environment
/// that is not marked as a sandbox.
enum SandboxAdmin {
  static func client(_ context: DeckContext) async throws -> SandboxAdminAPI.Client {
    try await client(context, path: "/__sandbox/v1") {
      SandboxAdminAPI.Client(serverURL: $0, transport: $1, middlewares: $2)
    }
  }

  /// A client for operator endpoints under `path` on `service`'s URL, once the environment is
  /// known to be a sandbox.
  static func client<Client>(
    _ context: DeckContext, service: Service = .flyr, path: String,
    _ make: (URL, any ClientTransport, [any ClientMiddleware]) throws -> Client
  ) async throws -> Client {
    let environment = try context.environment()
    guard environment.definition.isSandbox else {
      throw DeckError.usage(
        "Environment \"\(environment.name)\" is not a sandbox; deck sandbox commands act only on sandboxes.",
        hint:
          "Use --env sandbox (embedded) or --env local (deck sandbox serve), or mark a served sandbox with: deck env set \(environment.name) sandbox=true"
      )
    }
    return try await context.client(service, path: path, make)
  }

  static func show(_ info: Components.Schemas.Info, context: DeckContext, message: String?) throws {
    if context.isJSON { return try context.output.json(info) }
    if let message { context.output.info(message) }
    var rows: [(String, String)] = [("environment", try context.environment().name)]
    if let database = info.database { rows.append(("database", database)) }
    rows += [("brokerages", "\(info.brokerages)"), ("users", "\(info.users)")]
    rows.append(("anon key", info.anon_key))
    context.output.fields(rows)
  }
}
