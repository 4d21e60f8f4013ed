import Foundation
internal import SQLKit
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

  static func check(_ db: any SQLDatabase, token: String, now: Date) async throws -> InviteCheck {
    guard let invite = try await WorkspaceInvites.find(db, token: token) else { return .notFound }
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
    let result = try await state.database.read { db -> (InviteCheck, String?) in
      let check = try await Self.check(db, token: token, now: Date())
      guard case .usable(let invite) = check else { return (check, nil) }
      return (check, try await WorkspaceRecord.fetch(db, id: invite.workspaceID)?.name)
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
    return try await state.database.write { db -> Operations.acceptInvite.Output in
      switch try await Self.check(db, token: token, now: Date()) {
      case .notFound: return .notFound(.init(body: .json(.init(error: InviteMessage.invalid))))
      case .used: return badRequest(InviteMessage.used)
      case .expired: return badRequest(InviteMessage.expired)
      case .usable(let invite):
        // lower(trim(auth.users.email)) == lower(trim(invite.email))
        guard EmailRules.matches(user.email, invite.email) else {
          return .forbidden(.init(body: .json(.init(error: InviteMessage.differentEmail))))
        }
        let now = WorkspaceTime.now()
        // Accepted once: the check above and this update are one write transaction, and the
        // update only takes a pending invite, so of two acceptances racing one marks it.
        let accepted = try await db.fetchOne(
          """
          UPDATE workspace_invites SET status = 'accepted', accepted_at = ?
          WHERE id = ? AND status = 'pending' RETURNING id
          """,
          [now, invite.id])
        guard accepted != nil else { return badRequest(InviteMessage.used) }
        // The backend's trigger on acceptance: add the user to the workspace with the invite's role.
        try await WorkspaceMemberships.add(db, workspaceID: invite.workspaceID, userID: user.id, role: invite.role)
        return .ok(.init(body: .json(.init(success: true, workspaceId: invite.workspaceID, redirect: "/home"))))
      }
    }
  }
}
