import Foundation
import Hummingbird
internal import SQLKit
import SandboxKit
import SandboxWorkspaceAPI
import WorkspaceRules

/// The workspace operator endpoints under /__sandbox/v1/workspace: what a real backend gets
/// from outside (the Stripe webhook, the passing of time) and what an operator checks.
struct WorkspaceAdminHandlers: SandboxWorkspaceAPI.APIProtocol {
  let state: SandboxState

  typealias Schemas = SandboxWorkspaceAPI.Components.Schemas

  func setSubscription(_ input: Operations.setSubscription.Input) async throws -> Operations.setSubscription.Output {
    guard case .json(let update) = input.body else { throw SandboxAPIError.internalError }
    var trialEnd: String?
    if let text = update.trial_ends_at {
      guard let date = ContractText.parseTimestamp(text) else {
        return .badRequest(.init(body: .json(.init(error: "trial_ends_at must be an ISO 8601 date or date-time"))))
      }
      trialEnd = WorkspaceTime.format(date)
    }
    let trialEndsAt = trialEnd
    guard !ContractText.trim(update.email).isEmpty else {
      return .badRequest(.init(body: .json(.init(error: "email is required"))))
    }
    let email = EmailAddress.normalize(update.email)
    return try await state.database.write { db -> Operations.setSubscription.Output in
      guard let user = try await UserRecord.fetch(db, email: email) else {
        return .notFound(.init(body: .json(.init(error: "No user \(email)"))))
      }
      guard let workspace = try await WorkspaceMemberships.owned(db, userID: user.id) else {
        return .notFound(.init(body: .json(.init(error: "\(email) owns no workspace"))))
      }
      try await db.execute(
        "UPDATE workspaces SET subscription_status = ?, trial_ends_at = ?, updated_at = ? WHERE id = ?",
        [update.status.rawValue, trialEndsAt, WorkspaceTime.now(), workspace.id])
      return .ok(.init(body: .json(try await Self.view(db, workspaceID: workspace.id))))
    }
  }

  func expireInvite(_ input: Operations.expireInvite.Input) async throws -> Operations.expireInvite.Output {
    guard case .json(let reference) = input.body else { throw SandboxAPIError.internalError }
    let token = ContractText.trim(reference.token)
    guard !token.isEmpty else { return .badRequest(.init(body: .json(.init(error: "token is required")))) }
    return try await state.database.write { db -> Operations.expireInvite.Output in
      guard let invite = try await WorkspaceInvites.find(db, token: token) else {
        return .notFound(.init(body: .json(.init(error: "No invite has this token"))))
      }
      let past = WorkspaceTime.format(Date().addingTimeInterval(-1))
      try await db.execute("UPDATE workspace_invites SET expires_at = ? WHERE id = ?", [past, invite.id])
      guard let updated = try await WorkspaceInvites.find(db, token: token) else {
        throw SandboxAPIError.internalError
      }
      return .ok(.init(body: .json(Self.view(updated))))
    }
  }

  /// A row of `sandbox_outbox`.
  private struct OutboxRow: Decodable {
    var id: Int
    var toEmail: String
    var subject: String
    var body: String
    var joinUrl: String
    var workspaceName: String?
    var sentAt: String
  }

  func listOutbox(_ input: Operations.listOutbox.Input) async throws -> Operations.listOutbox.Output {
    let to = input.query.to.map(EmailAddress.normalize).flatMap { $0.isEmpty ? nil : $0 }
    let emails = try await state.database.read { db in
      let rows =
        if let to {
          try await db.fetchAll(
            OutboxRow.self, "SELECT * FROM sandbox_outbox WHERE lower(to_email) = lower(?) ORDER BY id", [to])
        } else {
          try await db.fetchAll(OutboxRow.self, "SELECT * FROM sandbox_outbox ORDER BY id")
        }
      return rows.map { row in
        Schemas.OutboxEmail(
          id: row.id, to: row.toEmail, subject: row.subject, body: row.body, join_url: row.joinUrl,
          workspace_name: row.workspaceName, sent_at: row.sentAt)
      }
    }
    return .ok(.init(body: .json(emails)))
  }

  func inspectWorkspace(_ input: Operations.inspectWorkspace.Input) async throws
    -> Operations.inspectWorkspace.Output
  {
    guard !ContractText.trim(input.query.email).isEmpty else {
      return .badRequest(.init(body: .json(.init(error: "email is required"))))
    }
    let email = EmailAddress.normalize(input.query.email)
    return try await state.database.read { db -> Operations.inspectWorkspace.Output in
      guard let user = try await UserRecord.fetch(db, email: email) else {
        return .notFound(.init(body: .json(.init(error: "No user \(email)"))))
      }
      guard let (workspace, _) = try await WorkspaceMemberships.primary(db, userID: user.id) else {
        return .notFound(.init(body: .json(.init(error: "\(email) has no workspace (no_workspace)"))))
      }
      return .ok(.init(body: .json(try await Self.view(db, workspaceID: workspace.id))))
    }
  }

  // MARK: Views

  /// A member of a workspace, with the user's email and profile.
  private struct MemberRow: Decodable {
    var userId: String
    var email: String
    var role: String
    var firstName: String?
    var lastName: String?
    var weeklyDoorGoal: Int?
    var createdAt: String
  }

  static func view(_ db: any SQLDatabase, workspaceID: String) async throws -> Schemas.Workspace {
    guard let workspace = try await WorkspaceRecord.fetch(db, id: workspaceID) else {
      throw SandboxAPIError.internalError
    }
    let members = try await db.fetchAll(
      MemberRow.self,
      """
      SELECT m.user_id, m.role, m.created_at, u.email, p.first_name, p.last_name, p.weekly_door_goal
      FROM workspace_members m JOIN users u ON u.id = m.user_id
      LEFT JOIN user_profiles p ON p.user_id = m.user_id
      WHERE m.workspace_id = ? ORDER BY m.created_at, m.rowid
      """,
      [workspaceID]
    ).map { row in
      Schemas.Member(
        user_id: row.userId, email: row.email, role: .init(rawValue: row.role) ?? .member,
        first_name: row.firstName, last_name: row.lastName, weekly_door_goal: row.weeklyDoorGoal,
        created_at: row.createdAt)
    }
    let invites = try await db.fetchAll(
      InviteRecord.self, "SELECT * FROM workspace_invites WHERE workspace_id = ? ORDER BY created_at, rowid",
      [workspaceID]
    ).map(view)
    let ownerEmail = try await db.fetchValue(String.self, "SELECT email FROM users WHERE id = ?", [workspace.ownerID])
    return Schemas.Workspace(
      id: workspace.id, name: workspace.name, owner_id: workspace.ownerID, owner_email: ownerEmail,
      industry: workspace.industry, brokerage_id: workspace.brokerageID, brokerage_name: workspace.brokerageName,
      subscription_status: .init(rawValue: workspace.subscriptionStatus.rawValue) ?? .inactive,
      trial_ends_at: workspace.trialEndsAt, onboarding_completed_at: workspace.onboardingCompletedAt,
      max_seats: workspace.maxSeats, referral_code_used: workspace.referralCodeUsed, created_at: workspace.createdAt,
      members: members, invites: invites)
  }

  static func view(_ invite: InviteRecord) -> Schemas.Invite {
    Schemas.Invite(
      id: invite.id, workspace_id: invite.workspaceID, email: invite.email,
      role: .init(rawValue: invite.role) ?? .member, status: .init(rawValue: invite.status) ?? .pending,
      invited_by: invite.invitedBy, expires_at: invite.expiresAt, created_at: invite.createdAt,
      accepted_at: invite.acceptedAt)
  }

  @Sendable static func requestError(operationID: String, request: HTTPRequest, status: HTTPResponse.Status)
    -> SandboxAPIError
  {
    switch operationID {
    case "setSubscription":
      .simple(.badRequest, "email and status (inactive, trialing, active or past_due) are required")
    case "inspectWorkspace": .simple(.badRequest, "email is required")
    case "expireInvite": .simple(.badRequest, "token is required")
    default: .simple(status, status == .badRequest ? "invalid request body" : "invalid request")
    }
  }
}
