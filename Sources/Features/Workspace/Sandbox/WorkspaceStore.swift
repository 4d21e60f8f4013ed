import Foundation
import GRDB
import SandboxKit
import WorkspaceRules

/// A row of `workspaces`.
struct WorkspaceRecord: Sendable, Equatable {
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

  init(row: Row) {
    id = row["id"]
    name = row["name"]
    ownerID = row["owner_id"]
    subscriptionStatus = SubscriptionStatus(rawValue: row["subscription_status"]) ?? .inactive
    trialEndsAt = row["trial_ends_at"]
    onboardingCompletedAt = row["onboarding_completed_at"]
    industry = row["industry"]
    brokerageID = row["brokerage_id"]
    brokerageName = row["brokerage_name"]
    maxSeats = row["max_seats"]
    referralCodeUsed = row["referral_code_used"]
    createdAt = row["created_at"]
  }

  static func fetch(_ db: Database, id: String) throws -> WorkspaceRecord? {
    try Row.fetchOne(db, sql: "SELECT * FROM workspaces WHERE id = ?", arguments: [id]).map(WorkspaceRecord.init(row:))
  }
}

/// Memberships and the primary workspace.
enum WorkspaceMemberships {
  /// The user's primary workspace: their first membership by `created_at` (section 1).
  static func primary(_ db: Database, userID: String) throws -> (workspace: WorkspaceRecord, role: WorkspaceRole)? {
    guard
      let row = try Row.fetchOne(
        db,
        sql: """
          SELECT w.*, m.role AS member_role FROM workspace_members m
          JOIN workspaces w ON w.id = m.workspace_id
          WHERE m.user_id = ? ORDER BY m.created_at, m.rowid LIMIT 1
          """,
        arguments: [userID])
    else { return nil }
    return (WorkspaceRecord(row: row), WorkspaceRole(rawValue: row["member_role"]) ?? .member)
  }

  /// The first workspace the user is an owner of, by membership `created_at`.
  static func owned(_ db: Database, userID: String) throws -> WorkspaceRecord? {
    try Row.fetchOne(
      db,
      sql: """
        SELECT w.* FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
        WHERE m.user_id = ? AND m.role = 'owner' ORDER BY m.created_at, m.rowid LIMIT 1
        """,
      arguments: [userID]
    ).map(WorkspaceRecord.init(row:))
  }

  /// What the access rules need about the user's primary workspace, or nil without one.
  static func primaryMembership(_ db: Database, userID: String) throws -> PrimaryMembership? {
    guard let (workspace, role) = try primary(db, userID: userID) else { return nil }
    return PrimaryMembership(
      role: role, workspaceName: workspace.name, subscriptionStatus: workspace.subscriptionStatus,
      trialEndsAt: workspace.trialEndsAt.flatMap(WorkspaceTime.parse),
      onboardingCompleted: workspace.onboardingCompletedAt != nil)
  }

  /// Adds a membership (a no-op when the user is already a member).
  static func add(_ db: Database, workspaceID: String, userID: String, role: String) throws {
    try db.execute(
      sql: "INSERT OR IGNORE INTO workspace_members (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)",
      arguments: [workspaceID, userID, role, WorkspaceTime.now()])
  }
}

/// A row of `workspace_invites`.
struct InviteRecord: Sendable, Equatable {
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

  init(row: Row) {
    id = row["id"]
    workspaceID = row["workspace_id"]
    email = row["email"]
    role = row["role"]
    token = row["token"]
    status = row["status"]
    invitedBy = row["invited_by"]
    expiresAt = row["expires_at"]
    createdAt = row["created_at"]
    acceptedAt = row["accepted_at"]
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

  static func find(_ db: Database, token: String) throws -> InviteRecord? {
    try Row.fetchOne(db, sql: "SELECT * FROM workspace_invites WHERE token = ?", arguments: [token])
      .map(InviteRecord.init(row:))
  }

  static func hasPendingInvite(_ db: Database, email: String, now: Date) throws -> Bool {
    let rows = try Row.fetchAll(
      db, sql: "SELECT * FROM workspace_invites WHERE email = ? COLLATE NOCASE AND status = 'pending'",
      arguments: [EmailAddress.normalize(email)])
    return rows.map(InviteRecord.init(row:)).contains { !$0.isExpired(now: now) }
  }

  /// Creates a `member` invite that expires after 7 days, replacing any pending invite to the
  /// same address, and sends (records) the invite email with its join link.
  static func create(
    _ db: Database, workspace: WorkspaceRecord, email: String, invitedBy: AuthenticatedUser, joinBase: String
  ) throws {
    let now = Date()
    let email = EmailAddress.normalize(email)
    try db.execute(
      sql: """
        UPDATE workspace_invites SET status = 'expired'
        WHERE workspace_id = ? AND email = ? COLLATE NOCASE AND status = 'pending'
        """,
      arguments: [workspace.id, email])
    let token = newToken()
    let expires = now.addingTimeInterval(TimeInterval(WorkspaceRules.inviteLifetimeDays * 24 * 3600))
    try db.execute(
      sql: """
        INSERT INTO workspace_invites (id, workspace_id, email, role, token, status, invited_by, expires_at, created_at)
        VALUES (?, ?, ?, 'member', ?, 'pending', ?, ?, ?)
        """,
      arguments: [
        UUID().uuidString.lowercased(), workspace.id, email, token, invitedBy.id, WorkspaceTime.format(expires),
        WorkspaceTime.format(now),
      ])
    let joinURL = joinBase + InviteLink.joinPath(token: token)
    try Outbox.send(
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
    _ db: Database, to: String, subject: String, body: String, joinURL: String, workspaceName: String?
  ) throws {
    try db.execute(
      sql: """
        INSERT INTO sandbox_outbox (to_email, subject, body, join_url, workspace_name, sent_at)
        VALUES (?, ?, ?, ?, ?, ?)
        """,
      arguments: [to, subject, body, joinURL, workspaceName, WorkspaceTime.now()])
  }
}
