import BrokerageServer
import Foundation
import Hummingbird
package import SQLKit
import SandboxKit
import SandboxWorkspaceAPI
import WorkspaceAPI

/// The workspace's part of the sandbox (workspace-onboarding.md): its tables, the spec's
/// `handle_new_user()` trigger, the WorkspaceAPI contract (access gate, onboarding, invites,
/// checkout), its operator endpoints (subscriptions, invite expiry, the outbox, inspect) and
/// the hosted checkout and join pages.
package enum WorkspaceServer: SandboxFeature {
  package static let name = "workspace"

  package static func registerMigrations(in migrations: inout SchemaMigrations) {
    WorkspaceSchema.register(in: &migrations)
  }

  /// The demo owner gets what `handle_new_user()` gives every user (also when the database
  /// had the account before it had workspace tables).
  package static func seed(_ db: any SQLDatabase, sandbox: SeedContext) async throws {
    guard try await UserRecord.fetch(db, id: SandboxSeed.demoUserID) != nil else { return }
    try await WorkspaceSchema.handleNewUser(db, userID: SandboxSeed.demoUserID, email: SandboxSeed.demoEmail)
  }

  package static func userCreated(_ user: NewUser, in db: any SQLDatabase) async throws {
    try await WorkspaceSchema.handleNewUser(db, userID: user.id, email: user.email)
  }

  package static func registerRoutes(on routes: SandboxRoutes) throws {
    let state = routes.state
    try WorkspaceHandlers(state: state).registerHandlers(
      on: routes.transport, serverURL: SandboxRoutes.root, configuration: SandboxRoutes.configuration,
      middlewares: [
        ErrorResponseMiddleware(requestError: WorkspaceHandlers.requestError),
        RejectNullsMiddleware(
          operations: [
            "completeOnboarding": [
              "firstName", "lastName", "workspaceName", "industry", "useCase", "inviteEmails", "brokerage",
              "brokerageId",
            ],
            "createCheckoutSession": ["plan", "currency", "priceId"], "acceptInvite": ["token"],
          ],
          error: { WorkspaceHandlers.requestError(operationID: $0, request: $1, status: .badRequest) }),
      ])
    try WorkspaceAdminHandlers(state: state).registerHandlers(
      on: routes.transport, serverURL: SandboxRoutes.operatorURL(Self.self), configuration: SandboxRoutes.configuration,
      middlewares: [
        ErrorResponseMiddleware(requestError: WorkspaceAdminHandlers.requestError),
        RejectNullsMiddleware(
          operations: ["setSubscription": ["email", "status", "trial_ends_at"], "expireInvite": ["token"]],
          error: { WorkspaceAdminHandlers.requestError(operationID: $0, request: $1, status: .badRequest) }),
      ])
    CheckoutPage.register(on: routes.router, state: state)
    JoinPage.register(on: routes.router, state: state)
  }

  package static func counts(_ db: any SQLDatabase) async throws -> [String: Int] {
    ["workspaces": try await db.fetchValue(Int.self, "SELECT count(*) FROM workspaces") ?? 0]
  }
}

/// The workspace routes of the FLYR-PRO backend (the WorkspaceAPI contract), one file per
/// group of the spec's section 3.
struct WorkspaceHandlers: WorkspaceAPI.APIProtocol {
  let state: SandboxState

  /// A body the generated server could not decode, or a null the document does not allow:
  /// the spec's own message where it has one.
  @Sendable static func requestError(operationID: String, request: HTTPRequest, status: HTTPResponse.Status)
    -> SandboxAPIError
  {
    switch (operationID, status) {
    case ("createCheckoutSession", .badRequest): return .simple(.badRequest, invalidPrice)
    case ("acceptInvite", .badRequest), ("validateInvite", .badRequest):
      return .simple(.badRequest, InviteMessage.tokenRequired)
    default: return .simple(status, "invalid request")
    }
  }
}
