import Foundation
import GRDB
import SandboxKit
import WorkspaceAPI
import WorkspaceRules

/// `GET /api/invites/validate` and `POST /api/invites/accept` (workspace-onboarding.md,
/// sections 3 and 5), with the spec's messages.
extension WorkspaceHandlers {
  enum InviteMessage {
    static let tokenRequired = "Token required"
    static let used = "This invite has already been used"
    static let expired = "This invite has expired"
    static let invalid = "Invalid or expired invite"
    static let differentEmail = "This invite was sent to a different email address"
  }

  /// Why an invite cannot be used, in the order the backend checks: unknown, used, expired.
  enum InviteCheck {
    case usable(InviteRecord)
    case notFound
    case used
    case expired
  }

  static func check(_ db: Database, token: String, now: Date) throws -> InviteCheck {
    guard let invite = try WorkspaceInvites.find(db, token: token) else { return .notFound }
    if invite.status == "accepted" { return .used }
    if invite.status == "expired" || invite.isExpired(now: now) { return .expired }
    return .usable(invite)
  }

  func validateInvite(_ input: Operations.validateInvite.Input) async throws -> Operations.validateInvite.Output {
    @Sendable func badRequest(_ message: String) -> Operations.validateInvite.Output {
      .badRequest(.init(body: .json(.init(error: message))))
    }
    let token = ContractText.trim(input.query.token)
    guard !token.isEmpty else { return badRequest(InviteMessage.tokenRequired) }
    let result = try await state.pool.read { db -> (InviteCheck, String?) in
      let check = try Self.check(db, token: token, now: Date())
      guard case .usable(let invite) = check else { return (check, nil) }
      return (check, try WorkspaceRecord.fetch(db, id: invite.workspaceID)?.name)
    }
    switch result {
    case (.notFound, _): return .notFound(.init(body: .json(.init(error: InviteMessage.invalid))))
    case (.used, _): return badRequest(InviteMessage.used)
    case (.expired, _): return badRequest(InviteMessage.expired)
    case (.usable(let invite), let workspaceName):
      return .ok(
        .init(
          body: .json(
            .init(
              valid: true, workspaceName: workspaceName, email: invite.email,
              role: .init(rawValue: invite.role) ?? .member))))
    }
  }

  func acceptInvite(_ input: Operations.acceptInvite.Input) async throws -> Operations.acceptInvite.Output {
    let user = try await state.requireBearerUser(orThrow: Self.unauthorized)
    @Sendable func badRequest(_ message: String) -> Operations.acceptInvite.Output {
      .badRequest(.init(body: .json(.init(error: message))))
    }
    guard case .json(let request) = input.body else { throw SandboxAPIError.internalError }
    let token = ContractText.trim(request.token)
    guard !token.isEmpty else { return badRequest(InviteMessage.tokenRequired) }
    return try await state.pool.write { db -> Operations.acceptInvite.Output in
      switch try Self.check(db, token: token, now: Date()) {
      case .notFound: return .notFound(.init(body: .json(.init(error: InviteMessage.invalid))))
      case .used: return badRequest(InviteMessage.used)
      case .expired: return badRequest(InviteMessage.expired)
      case .usable(let invite):
        // lower(trim(auth.users.email)) == lower(trim(invite.email))
        guard EmailRules.matches(user.email, invite.email) else {
          return .forbidden(.init(body: .json(.init(error: InviteMessage.differentEmail))))
        }
        let now = WorkspaceTime.now()
        try db.execute(
          sql: "UPDATE workspace_invites SET status = 'accepted', accepted_at = ? WHERE id = ?",
          arguments: [now, invite.id])
        // The backend's trigger on acceptance: add the user to the workspace with the invite's role.
        try WorkspaceMemberships.add(db, workspaceID: invite.workspaceID, userID: user.id, role: invite.role)
        return .ok(.init(body: .json(.init(success: true, workspaceId: invite.workspaceID, redirect: "/home"))))
      }
    }
  }
}
