import DeckConfig
import DeckSupport
import FoundationEssentials
import HTTPTypes
import OpenAPIRuntime

/// Clients for the operator endpoints (`/__sandbox/v1/…`) of the current environment's
/// sandbox: the core's and each feature's. Nothing is sent to an environment that is not
/// marked as a sandbox, and the admin token goes only to the URL configured with it.
public enum SandboxOperator {
  /// What every operator command can exit with, besides its own codes (which it adds, or
  /// words for itself, in its help's `HelpText.discussion`).
  public static let exits: [ExitDoc] = [
    .usage("bad input, or not a sandbox"),
    .unauthorized("no admin token for this sandbox, or the wrong one"), .unavailable("the sandbox cannot be reached"),
  ]

  /// A client for operator endpoints under `path` on `service`'s URL, once the environment is
  /// known to be a sandbox.
  public static func client<Client>(
    _ context: DeckContext, service: Service = .auth, path: String,
    _ make: (URL, any ClientTransport, [any ClientMiddleware]) throws -> Client
  ) async throws -> Client {
    let environment = try context.environment()
    guard environment.definition.isSandbox else {
      if let reason = environment.definition.productionReason {
        throw DeckError.usage(
          "Environment \"\(environment.name)\" is not a sandbox: it is production (\(reason)); deck sandbox commands never act on production.",
          hint: "Use --env sandbox (the local sandbox deck starts) or --env local (deck sandbox serve).")
      }
      throw DeckError.usage(
        "Environment \"\(environment.name)\" is not a sandbox; deck sandbox commands act only on sandboxes.",
        hint:
          "Use --env sandbox (the local sandbox deck starts) or --env local (deck sandbox serve), or mark a served sandbox with: deck env set \(environment.name) sandbox=true"
      )
    }
    let token = try await adminToken(context, environment: environment, service: service)
    return try await context.client(service, path: path) { url, transport, middlewares in
      try make(url, transport, [AdminTokenMiddleware(token: token, environment: environment.name)] + middlewares)
    }
  }

  /// The variable that gives the admin token explicitly (scripts, CI, another machine's sandbox).
  public static let tokenVariable = SecretVariables.sandboxAdminToken

  /// The sandbox's admin token: `DECK_SANDBOX_ADMIN_TOKEN`, else the local sandbox's (from its
  /// runtime record), else the environment's `sandbox-admin-token`, which is sent only to the URL
  /// configured with it, never to a `DECK_<SERVICE>_URL` override; else, for a `deck sandbox
  /// serve` of this user at the environment's loopback URL, the token in its served record, once
  /// the server proves it holds it (``SandboxAdminTokenFinder``). The server writes no file of
  /// deck's configuration: its runtime record is how the token reaches deck.
  static func adminToken(_ context: DeckContext, environment: ResolvedEnvironment, service: Service) async throws
    -> String
  {
    if let token = context.session.processEnvironment[tokenVariable], !token.isEmpty { return token }
    if try environment.endpoint(for: service) == .localSandbox {
      return try await context.session.localSandboxRecord().adminToken
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
    if !environment.overriddenServices.contains(service), case .url(let url) = try environment.endpoint(for: service),
      case .found(let served) = SandboxAdminTokenFinder.live(
        session: context.session, file: try context.configStore.load()
      )
      .find(url: url)
    {
      return served.token
    }
    throw DeckError(
      .unauthorized(status: nil), "No admin token for the sandbox of environment \"\(name)\".",
      hint:
        "deck sandbox serve prints it (a served sandbox of yours on loopback hands it over by itself); store it with: deck env set \(name) sandbox-admin-token=TOKEN  (or export \(tokenVariable)=TOKEN)"
    )
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
          "Use the token its deck sandbox serve printed: deck env set \(environment) sandbox-admin-token=TOKEN  (or export \(SandboxOperator.tokenVariable)=TOKEN)"
      )
    }
  }
}
