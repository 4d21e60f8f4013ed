import Foundation
import SandboxKit
import WorkspaceAPI
import WorkspaceRules

/// `GET /api/access/state` and `GET /api/access/redirect` (workspace-onboarding.md, section 3).
extension WorkspaceHandlers {
  static let unauthorized = SandboxAPIError.simple(.unauthorized, "Unauthorized")

  func getAccessState(_ input: Operations.getAccessState.Input) async throws -> Operations.getAccessState.Output {
    let user = try await state.requireBearerUser(orThrow: Self.unauthorized)
    let membership = try await state.database.read { db in
      try await WorkspaceMemberships.primaryMembership(db, userID: user.id)
    }
    let access = AccessState.compute(membership, now: Date())
    return .ok(
      .init(
        body: .json(
          .init(
            role: access.role.flatMap { .init(rawValue: $0.rawValue) }, workspaceName: access.workspaceName,
            hasAccess: access.hasAccess, reason: access.reason.flatMap { .init(rawValue: $0.rawValue) }))))
  }

  func getAccessRedirect(_ input: Operations.getAccessRedirect.Input) async throws
    -> Operations.getAccessRedirect.Output
  {
    guard let user = try await state.bearerUser() else {
      let login = GateRedirect.login
      return .unauthorized(
        .init(
          body: .json(
            .init(error: "Unauthorized", redirect: .init(rawValue: login.redirect), path: login.path))))
    }
    let membership = try await state.database.read { db in
      try await WorkspaceMemberships.primaryMembership(db, userID: user.id)
    }
    let gate = WorkspaceRules.gate(inviteToken: input.query.token, membership: membership, now: Date())
    guard let redirect = Components.Schemas.RedirectTarget(rawValue: gate.redirect) else {
      throw SandboxAPIError.internalError
    }
    return .ok(.init(body: .json(.init(redirect: redirect, path: gate.path))))
  }
}
