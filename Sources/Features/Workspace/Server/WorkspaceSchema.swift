import Foundation
internal import SQLKit
import SandboxKit

/// The workspace tables of the sandbox, as workspace-onboarding.md section 1 names them
/// (`workspaces`, `workspace_members`, `workspace_invites`, `user_profiles`), plus the
/// sandbox's own `checkout_sessions` (hosted checkout). `sandbox_outbox` (sent emails) is the
/// core's since the auth service sends mail too; this migration makes it where it came first.
enum WorkspaceSchema {
  static func register(in migrations: inout SchemaMigrations) {
    migrations.add(
      "v1-workspaces",
      script: """
        CREATE TABLE user_profiles (
          user_id TEXT PRIMARY KEY NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          first_name TEXT,
          last_name TEXT,
          weekly_door_goal INTEGER NOT NULL DEFAULT 100,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE TABLE workspaces (
          id TEXT PRIMARY KEY NOT NULL,
          name TEXT NOT NULL,
          owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          subscription_status TEXT NOT NULL DEFAULT 'inactive'
            CHECK (subscription_status IN ('inactive', 'trialing', 'active', 'past_due')),
          trial_ends_at TEXT,
          onboarding_completed_at TEXT,
          industry TEXT,
          brokerage_id TEXT REFERENCES brokerages(id),
          brokerage_name TEXT,
          max_seats INTEGER,
          referral_code_used TEXT,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE INDEX workspaces_owner ON workspaces(owner_id);
        CREATE TABLE workspace_members (
          workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
          user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
          created_at TEXT NOT NULL,
          UNIQUE (workspace_id, user_id)
        );
        CREATE INDEX workspace_members_user ON workspace_members(user_id, created_at);
        CREATE TABLE workspace_invites (
          id TEXT PRIMARY KEY NOT NULL,
          workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
          email TEXT NOT NULL,
          role TEXT NOT NULL CHECK (role IN ('admin', 'member')),
          token TEXT NOT NULL UNIQUE,
          status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'expired')),
          invited_by TEXT REFERENCES users(id) ON DELETE SET NULL,
          expires_at TEXT NOT NULL,
          created_at TEXT NOT NULL,
          accepted_at TEXT
        );
        CREATE INDEX workspace_invites_workspace ON workspace_invites(workspace_id);
        CREATE INDEX workspace_invites_email ON workspace_invites(email COLLATE NOCASE);
        CREATE TABLE IF NOT EXISTS sandbox_outbox (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          to_email TEXT NOT NULL,
          subject TEXT NOT NULL,
          body TEXT NOT NULL,
          join_url TEXT NOT NULL,
          workspace_name TEXT,
          sent_at TEXT NOT NULL
        );
        CREATE TABLE checkout_sessions (
          id TEXT PRIMARY KEY NOT NULL,
          workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
          user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          price_id TEXT NOT NULL,
          status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'complete')),
          created_at TEXT NOT NULL,
          completed_at TEXT
        );
        """)
  }

  /// The spec's `handle_new_user()` (section 1, "New user trigger"): a profile with a weekly
  /// door goal of 100 and, when the user has no membership, a workspace "My Workspace" they
  /// own, not onboarded and inactive.
  ///
  /// One sandbox refinement: a user who signs up while a pending, unexpired invite to their
  /// email exists gets no workspace of their own, so the invited workspace becomes their
  /// primary one when they accept (the invitee flow of section 2 relies on that).
  static func handleNewUser(_ db: any SQLDatabase, userID: String, email: String) async throws {
    let now = WorkspaceTime.now()
    try await db.execute(
      """
      INSERT INTO user_profiles (user_id, weekly_door_goal, created_at, updated_at)
      VALUES (?, 100, ?, ?)
      ON CONFLICT DO NOTHING
      """,
      [userID, now, now])
    let hasMembership =
      try await db.fetchOne("SELECT 1 FROM workspace_members WHERE user_id = ? LIMIT 1", [userID]) != nil
    guard !hasMembership else { return }
    if try await WorkspaceInvites.hasPendingInvite(db, email: email, now: Date()) { return }
    try await createWorkspace(db, ownerID: userID, name: "My Workspace")
  }

  /// A new workspace owned by `ownerID`, with its owner membership. Returns its id.
  @discardableResult
  static func createWorkspace(_ db: any SQLDatabase, ownerID: String, name: String) async throws -> String {
    let id = UUID().uuidString.lowercased()
    let now = WorkspaceTime.now()
    try await db.execute(
      """
      INSERT INTO workspaces (id, name, owner_id, subscription_status, created_at, updated_at)
      VALUES (?, ?, ?, 'inactive', ?, ?)
      """,
      [id, name, ownerID, now, now])
    try await db.execute(
      "INSERT INTO workspace_members (workspace_id, user_id, role, created_at) VALUES (?, ?, 'owner', ?)",
      [id, ownerID, now])
    return id
  }
}

/// Timestamps of the workspace tables: ISO 8601 in UTC with milliseconds, so that they sort
/// as text in the order they happened.
enum WorkspaceTime {
  static func now() -> String { format(Date()) }

  static func format(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
  }

  /// Parses what `format` writes, an ISO 8601 date-time with or without fractional seconds,
  /// or a date alone (midnight UTC).
  static func parse(_ text: String) -> Date? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(trimmed) { return date }
    if let date = try? Date.ISO8601FormatStyle().parse(trimmed) { return date }
    if let date = try? Date.ISO8601FormatStyle().year().month().day().parse(trimmed) { return date }
    return nil
  }
}
