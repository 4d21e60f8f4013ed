import ArgumentParser
import DeckConfig
import DeckCore
import DeckSupport
import Foundation
import HTTPTypes
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
      SandboxTrigger.self, SandboxInspect.self, SandboxOutbox.self, SandboxFault.self,
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
    let token = try await adminToken(context, environment: environment, service: service)
    return try await context.client(service, path: path) { url, transport, middlewares in
      try make(url, transport, [AdminTokenMiddleware(token: token, environment: environment.name)] + middlewares)
    }
  }

  /// The variable that gives the admin token explicitly (scripts, CI, another machine's sandbox).
  static let tokenVariable = "DECK_SANDBOX_ADMIN_TOKEN"

  /// The sandbox's admin token: `DECK_SANDBOX_ADMIN_TOKEN`, else the embedded sandbox's (from its
  /// database), else the environment's `sandbox-admin-token` (which `deck sandbox serve` saves),
  /// which is sent only to the URL configured with it, never to a `DECK_<SERVICE>_URL` override.
  static func adminToken(_ context: DeckContext, environment: ResolvedEnvironment, service: Service) async throws
    -> String
  {
    if let token = context.session.processEnvironment[tokenVariable], !token.isEmpty { return token }
    if try environment.endpoint(for: service) == .embeddedSandbox {
      _ = try await context.session.embeddedSandboxURL()
      if let token = context.session.providers.embeddedSandboxAdminToken() { return token }
    }
    let name = environment.name
    if let token = environment.definition.sandboxAdminToken {
      guard !environment.overriddenServices.contains(service) else {
        throw DeckError(
          .unauthorized(status: nil),
          "Not sending environment \"\(name)\"'s sandbox admin token to \(service.overrideVariable), which overrides its URL.",
          hint: "Give that sandbox's token with: export \(tokenVariable)=TOKEN  (deck sandbox serve prints it)")
      }
      return token
    }
    throw DeckError(
      .unauthorized(status: nil), "No admin token for the sandbox of environment \"\(name)\".",
      hint:
        "deck sandbox serve prints it (and saves it for the environments that point at it); store it with: deck env set \(name) sandbox-admin-token=TOKEN  (or export \(tokenVariable)=TOKEN)"
    )
  }

  static func show(_ info: Components.Schemas.Info, context: DeckContext, message: String?) throws {
    let environment = try context.environment().name
    try context.output.emit(info) {
      if let message { context.output.info(message) }
      var rows: [(String, String)] = [("environment", environment)]
      if let database = info.database { rows.append(("database", database)) }
      rows += [("brokerages", "\(info.brokerages)"), ("users", "\(info.users)")]
      rows.append(("anon key", info.anon_key))
      context.output.fields(rows)
    }
  }
}

/// Sends the sandbox admin token (the trace redacts Authorization), and explains a refusal.
struct AdminTokenMiddleware: ClientMiddleware {
  let token: String
  let environment: String

  func intercept(
    _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
    next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
  ) async throws -> (HTTPResponse, HTTPBody?) {
    var request = request
    request.headerFields[.authorization] = "Bearer \(token)"
    do {
      return try await next(request, body, baseURL)
    } catch {
      // Inner middleware errors reach here wrapped by the OpenAPI runtime.
      guard case .unauthorized(status: 401) = ErrorPresenter.deckError(for: error).kind else { throw error }
      throw DeckError(
        .unauthorized(status: 401),
        "The sandbox at \(baseURL.absoluteString) refused the admin token of environment \"\(environment)\".",
        hint:
          "Use the token its deck sandbox serve printed: deck env set \(environment) sandbox-admin-token=TOKEN  (or export \(SandboxAdmin.tokenVariable)=TOKEN)"
      )
    }
  }
}
