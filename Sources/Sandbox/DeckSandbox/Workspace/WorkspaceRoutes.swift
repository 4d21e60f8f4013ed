import Foundation
import Hummingbird

/// The sandbox's workspace routes: the operator API (/__sandbox/v1/workspace), the hosted
/// checkout page and the join page.
enum WorkspaceRoutes {
  static func register(on transport: RecordingTransport, state: SandboxState) throws {
    let router = transport.router
    try WorkspaceAdminHandlers(state: state).registerHandlers(
      on: transport, serverURL: URL(string: "/__sandbox/v1/workspace")!,
      middlewares: [
        ErrorResponseMiddleware(requestError: WorkspaceAdminHandlers.requestError),
        RejectNullsMiddleware(
          operations: ["setSubscription": ["email", "status", "trial_ends_at"], "expireInvite": ["token"]],
          error: { WorkspaceAdminHandlers.requestError(operationID: $0, request: $1, status: .badRequest) }),
      ])
    CheckoutPage.register(on: router, state: state)
    JoinPage.register(on: router, state: state)
  }
}
