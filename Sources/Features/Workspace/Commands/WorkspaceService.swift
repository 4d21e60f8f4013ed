import BrokerageRules
import DeckAuth
import DeckCore
import DeckSupport
import FoundationEssentials
import WorkspaceAPI
import WorkspaceRules

/// Calls the workspace endpoints of the flyr service (workspace-onboarding.md, section 3).
struct WorkspaceService: Sendable {
  let context: DeckContext

  func client(auth: AuthUse = .required) async throws -> Client {
    try await context.client(.flyr, auth: auth) { Client(serverURL: $0, transport: $1, middlewares: $2) }
  }

  /// `GET /api/access/state`.
  func accessState() async throws -> Components.Schemas.AccessState {
    try await client().getAccessState().ok.body.json
  }

  /// `GET /api/access/redirect`. Not being signed in (locally, or a 401) is the spec's
  /// redirect to login.
  func redirect(inviteToken: String? = nil) async throws -> Components.Schemas.AccessRedirect {
    do {
      return try await client().getAccessRedirect(query: .init(token: inviteToken)).ok.body.json
    } catch {
      if case .unauthorized(let status) = ErrorPresenter.deckError(for: error).kind, status != 403 {
        return .init(redirect: .login, path: GateRedirect.login.path)
      }
      throw error
    }
  }

  /// Runs an owner's request (onboarding, checkout): a 400 "No workspace found" gets the hint
  /// that says what to do about it.
  func asOwner<T>(_ request: () async throws -> T) async throws -> T {
    do {
      return try await request()
    } catch {
      var failure = ErrorPresenter.deckError(for: error)
      guard case .rejected = failure.kind, NoOwnerWorkspace.matches(failure.message) else { throw error }
      failure.hint = NoOwnerWorkspace.hint
      throw failure
    }
  }

  /// `GET /api/invites/validate` (no auth).
  func validateInvite(token: String) async throws -> Components.Schemas.InviteValidateResponse {
    try await client(auth: .none).validateInvite(query: .init(token: token)).ok.body.json
  }

  /// The email deck would sign requests with, read locally (`DECK_TOKEN`'s claims, else the
  /// environment's active account); nil when not signed in.
  func signedInEmail() -> String? {
    if let token = context.session.processEnvironment["DECK_TOKEN"], !token.isEmpty {
      return JWTClaims(token: token)?.email
    }
    guard let environment = try? context.environment() else { return nil }
    return (try? context.tokenStore.accounts(in: environment.name))?.activeSession?.email
  }
}

extension Components.Schemas.AccessRedirect {
  /// The route deck prints for this redirect.
  var route: Route? { Route(redirect: redirect.rawValue, path: path) }
}

/// How a route prints, with the step that follows it.
enum RouteView {
  struct Body: Encodable {
    var redirect: String
    var path: String
  }

  static func show(redirect: String, path: String, context: DeckContext) throws {
    try context.output.emit(Body(redirect: redirect, path: path)) {
      print(Route(redirect: redirect, path: path), name: redirect, path: path, context: context)
    }
  }

  /// The route's name and path, and on stderr what to do next.
  static func print(_ route: Route?, name: String, path: String, context: DeckContext) {
    context.output.fields([("route", route?.name ?? name), ("path", path)])
    if let route, let hint = nextStep(route) { context.output.info(hint) }
  }

  static func nextStep(_ route: Route) -> String? {
    switch route {
    case .login: "Sign in with: deck auth login --email EMAIL --password-stdin"
    case .join: "Accept the invite with: deck workspace invite accept JOIN_LINK"
    case .onboarding: "Next: deck workspace onboard"
    case .subscribe: "Next: deck workspace subscribe --plan annual --currency USD --wait"
    case .subscribeMemberInactive: MemberInactive.message
    case .dashboard: nil
    }
  }
}

enum MemberInactive {
  static let message =
    "Your workspace has no active subscription. Contact your workspace owner to activate the subscription."
}
