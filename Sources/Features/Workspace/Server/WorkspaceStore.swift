import Foundation
internal import SQLKit
import SandboxKit
import WorkspaceRules

/// A row of `workspaces` (decoded by its columns' names, ``SQLRow/decode(_:)``).
struct WorkspaceRecord: Sendable, Equatable, Decodable {
  var id: String
  var name: String
  var ownerID: String
  var subscriptionStatus: SubscriptionStatus
  var trialEndsAt: String?
  var onboardingCompletedAt: String?
  var industry: String?
  var brokerageID: String?
  var brokerageName: String?
  var maxSeats: Int?
  var referralCodeUsed: String?
  var createdAt: String

  /// Its columns' names, in camel case.
  private enum CodingKeys: String, CodingKey {
    case id, name, subscriptionStatus, trialEndsAt, onboardingCompletedAt, industry, brokerageName, maxSeats
    case referralCodeUsed, createdAt
    case ownerID = "ownerId"
    case brokerageID = "brokerageId"
  }

  static func fetch(_ db: any SQLDatabase, id: String) async throws -> WorkspaceRecord? {
    try await db.fetchOne(WorkspaceRecord.self, "SELECT * FROM workspaces WHERE id = ?", [id])
  }
}

/// Memberships and the primary workspace.
enum WorkspaceMemberships {
  /// The user's primary workspace: their first membership by `created_at` (section 1).
  static func primary(
    _ db: any SQLDatabase, userID: String
  ) async throws -> (workspace: WorkspaceRecord, role: WorkspaceRole)? {
    guard
      let row = try await db.fetchOne(
        """
        SELECT w.*, m.role AS member_role FROM workspace_members m
        JOIN workspaces w ON w.id = m.workspace_id
        WHERE m.user_id = ? ORDER BY m.created_at, m.rowid LIMIT 1
        """,
        [userID])
    else { return nil }
    /// The membership's role beside the workspace's columns.
    struct Role: Decodable { var memberRole: WorkspaceRole }
    return (try row.decode(WorkspaceRecord.self), try row.decode(Role.self).memberRole)
  }

  /// The first workspace the user is an owner of, by membership `created_at`.
  static func owned(_ db: any SQLDatabase, userID: String) async throws -> WorkspaceRecord? {
    try await db.fetchOne(
      WorkspaceRecord.self,
      """
      SELECT w.* FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
      WHERE m.user_id = ? AND m.role = 'owner' ORDER BY m.created_at, m.rowid LIMIT 1
      """,
      [userID])
  }

  /// What the access rules need about the user's primary workspace, or nil without one.
  static func primaryMembership(_ db: any SQLDatabase, userID: String) async throws -> PrimaryMembership? {
    guard let (workspace, role) = try await primary(db, userID: userID) else { return nil }
    return PrimaryMembership(
      role: role, workspaceName: workspace.name, subscriptionStatus: workspace.subscriptionStatus,
      trialEndsAt: workspace.trialEndsAt.flatMap(WorkspaceTime.parse),
      onboardingCompleted: workspace.onboardingCompletedAt != nil)
  }

  /// Adds a membership (a no-op when the user is already a member).
  static func add(_ db: any SQLDatabase, workspaceID: String, userID: String, role: String) async throws {
    try await db.execute(
      """
      INSERT INTO workspace_members (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)
      ON CONFLICT DO NOTHING
      """,
      [workspaceID, userID, role, WorkspaceTime.now()])
  }
}

/// A row of `workspace_invites` (decoded by its columns' names, ``SQLRow/decode(_:)``).
struct InviteRecord: Sendable, Equatable, Decodable {
  var id: String
  var workspaceID: String
  var email: String
  var role: String
  var token: String
  var status: String
  var invitedBy: String?
  var expiresAt: String
  var createdAt: String
  var acceptedAt: String?

  /// Its columns' names, in camel case.
  private enum CodingKeys: String, CodingKey {
    case id, email, role, token, status, invitedBy, expiresAt, createdAt, acceptedAt
    case workspaceID = "workspaceId"
  }

  func isExpired(now: Date) -> Bool {
    guard let date = WorkspaceTime.parse(expiresAt) else { return true }
    return date <= now
  }
}

/// Invites: creation with unguessable tokens, lookup, acceptance, and the invite email.
enum WorkspaceInvites {
  /// 32 random bytes in lowercase hex: unguessable, and safe as a command-line word (a
  /// base64url token starts with `-` one time in 64, which a shell command takes for an option).
  /// (SystemRandomNumberGenerator reads the kernel's CSPRNG.)
  static func newToken() -> String {
    var random = SystemRandomNumberGenerator()
    return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &random)) }.joined()
  }

  static func find(_ db: any SQLDatabase, token: String) async throws -> InviteRecord? {
    try await db.fetchOne(InviteRecord.self, "SELECT * FROM workspace_invites WHERE token = ?", [token])
  }

  static func hasPendingInvite(_ db: any SQLDatabase, email: String, now: Date) async throws -> Bool {
    let invites = try await db.fetchAll(
      InviteRecord.self, "SELECT * FROM workspace_invites WHERE lower(email) = lower(?) AND status = 'pending'",
      [EmailAddress.normalize(email)])
    return invites.contains { !$0.isExpired(now: now) }
  }

  /// Creates a `member` invite that expires after 7 days, replacing any pending invite to the
  /// same address, and sends (records) the invite email with its join link.
  static func create(
    _ db: any SQLDatabase, workspace: WorkspaceRecord, email: String, invitedBy: AuthenticatedUser,
    joinBase: String
  ) async throws {
    let now = Date()
    let email = EmailAddress.normalize(email)
    try await db.execute(
      """
      UPDATE workspace_invites SET status = 'expired'
      WHERE workspace_id = ? AND lower(email) = lower(?) AND status = 'pending'
      """,
      [workspace.id, email])
    let token = newToken()
    let expires = now.addingTimeInterval(TimeInterval(WorkspaceRules.inviteLifetimeDays * 24 * 3600))
    try await db.execute(
      """
      INSERT INTO workspace_invites (id, workspace_id, email, role, token, status, invited_by, expires_at, created_at)
      VALUES (?, ?, ?, 'member', ?, 'pending', ?, ?, ?)
      """,
      [
        UUID().uuidString.lowercased(), workspace.id, email, token, invitedBy.id, WorkspaceTime.format(expires),
        WorkspaceTime.format(now),
      ])
    let joinURL = joinBase + InviteLink.joinPath(token: token)
    try await Outbox.send(
      db, to: email, subject: "You're invited to join \(workspace.name) on FLYR",
      body: """
        \(invitedBy.email) invited you to join the workspace "\(workspace.name)" as a member.

        Accept the invite within \(WorkspaceRules.inviteLifetimeDays) days, signed in as \(email):
        \(joinURL)
        """,
      joinURL: joinURL, workspaceName: workspace.name)
  }
}

/// The sandbox's mail catcher: every email it would send.
enum Outbox {
  static func send(
    _ db: any SQLDatabase, to: String, subject: String, body: String, joinURL: String, workspaceName: String?
  ) async throws {
    try await db.execute(
      """
      INSERT INTO sandbox_outbox (to_email, subject, body, join_url, workspace_name, sent_at)
      VALUES (?, ?, ?, ?, ?, ?)
      """,
      [to, subject, body, joinURL, workspaceName, WorkspaceTime.now()])
  }
}
