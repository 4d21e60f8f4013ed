import BrokerageRules
import Foundation
internal import SQLKit
import SandboxKit
import WorkspaceAPI
import WorkspaceRules

/// `POST /api/onboarding/complete` (workspace-onboarding.md section 3; the brokerage
/// persistence rules of brokerage-onboarding.md section 2).
extension WorkspaceHandlers {
  func completeOnboarding(_ input: Operations.completeOnboarding.Input) async throws
    -> Operations.completeOnboarding.Output
  {
    let user = try await state.requireBearerUser(orThrow: Self.unauthorized)
    guard case .json(let request) = input.body else { throw SandboxAPIError.internalError }

    @Sendable func badRequest(_ message: String) -> Operations.completeOnboarding.Output {
      .badRequest(.init(body: .json(.init(error: message))))
    }
    // As the document states them: industry one of the canonical values exactly, every invite
    // email matching its pattern (invites are sent for a team only).
    let industry = request.industry?.rawValue
    if let industry, Industry(rawValue: industry) == nil { return badRequest("Invalid industry") }
    var emails: [String] = []
    for email in request.inviteEmails ?? [] {
      guard ContractText.isEmail(email) else { return badRequest("Invalid invite email: \(email)") }
      let normalized = EmailAddress.normalize(email)
      if request.useCase == .team, !emails.contains(normalized) { emails.append(normalized) }
    }
    let invites = emails
    let joinBase = state.linkBase
    return try await state.database.write { db -> Operations.completeOnboarding.Output in
      guard let workspace = try await WorkspaceMemberships.owned(db, userID: user.id) else {
        return badRequest("No workspace found")
      }
      let brokerage: (id: String?, name: String?)
      switch try await OnboardingBrokerage.resolve(db, brokerage: request.brokerage, brokerageID: request.brokerageId)
      {
      case .success(let resolved): brokerage = resolved
      case .failure(let message): return .notFound(.init(body: .json(.init(error: message))))
      }
      let now = WorkspaceTime.now()
      let profile = try await db.fetchOne(
        """
        UPDATE user_profiles SET first_name = coalesce(?, first_name), last_name = coalesce(?, last_name),
          updated_at = ?
        WHERE user_id = ?
        RETURNING user_id
        """,
        [Self.nonEmpty(request.firstName), Self.nonEmpty(request.lastName), now, user.id])
      if profile == nil {
        try await db.execute(
          """
          INSERT INTO user_profiles (user_id, first_name, last_name, weekly_door_goal, created_at, updated_at)
          VALUES (?, ?, ?, 100, ?, ?)
          """,
          [user.id, Self.nonEmpty(request.firstName), Self.nonEmpty(request.lastName), now, now])
      }
      try await db.execute(
        """
        UPDATE workspaces SET name = coalesce(?, name), industry = coalesce(?, industry),
          brokerage_id = ?, brokerage_name = ?, referral_code_used = coalesce(?, referral_code_used),
          onboarding_completed_at = ?, updated_at = ?
        WHERE id = ?
        """,
        [
          Self.nonEmpty(request.workspaceName).map(BrokerageRules.sanitize), industry, brokerage.id, brokerage.name,
          Self.nonEmpty(request.referralCode), now, now, workspace.id,
        ])
      guard let updated = try await WorkspaceRecord.fetch(db, id: workspace.id) else {
        throw SandboxAPIError.internalError
      }
      for email in invites {
        try await WorkspaceInvites.create(db, workspace: updated, email: email, invitedBy: user, joinBase: joinBase)
      }
      return .ok(.init(body: .json(.init(success: true, redirect: "/subscribe"))))
    }
  }

  static func nonEmpty(_ text: String?) -> String? {
    guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
    return trimmed
  }
}

/// The brokerage persistence rules (brokerage-onboarding.md, section 2).
enum OnboardingBrokerage {
  enum Resolution {
    case success((id: String?, name: String?))
    case failure(String)
  }

  /// 1. A valid UUID `brokerageId` is stored as `brokerage_id` and `brokerage_name` is cleared.
  /// 2. Otherwise brokerage text is matched exactly-ish (sanitized, ignoring case) against the
  ///    canonical brokerages: a match stores its id and clears the name.
  /// 3. Otherwise the sanitized text is stored as `brokerage_name` with no id.
  /// Neither given: both are cleared.
  static func resolve(_ db: any SQLDatabase, brokerage: String?, brokerageID: String?) async throws -> Resolution {
    if let id = brokerageID?.trimmingCharacters(in: .whitespacesAndNewlines), BrokerageRules.isUUID(id) {
      let id = id.lowercased()
      let exists = try await db.fetchOne("SELECT 1 FROM brokerages WHERE id = ? LIMIT 1", [id]) != nil
      guard exists else { return .failure("Brokerage not found") }
      return .success((id, nil))
    }
    let text = BrokerageRules.sanitize(brokerage ?? "")
    guard !text.isEmpty else { return .success((nil, nil)) }
    if let id = try await canonicalID(db, name: text) { return .success((id, nil)) }
    return .success((nil, text))
  }

  /// The canonical brokerage named `text`, ignoring case and runs of whitespace, the same on
  /// both engines. ASCII text is compared in SQL with the case folding spelled out for each:
  /// SQLite's `COLLATE NOCASE` and PostgreSQL's `lower()` on both sides, restricted to ASCII
  /// names (`octet_length = length`), since PostgreSQL's `lower()` also folds other letters
  /// (the Kelvin sign to k) and NOCASE does not. Text with other letters ("Engel & VÖLKERS") is
  /// compared in Swift with the names of the same length, on both engines.
  static func canonicalID(_ db: any SQLDatabase, name text: String) async throws -> String? {
    /// A brokerage's id and name.
    struct Brokerage: Decodable {
      var id: String
      var name: String
    }
    if text.allSatisfy(\.isASCII) {
      return try await db.fetchValue(
        String.self, db.isPostgreSQL ? Self.asciiMatchPostgreSQL : Self.asciiMatchSQLite, [text])
    }
    let wanted = text.lowercased()
    let candidates = try await db.fetchAll(
      Brokerage.self, "SELECT id, name FROM brokerages WHERE length(name) = ? ORDER BY id",
      [text.unicodeScalars.count])
    return candidates.first { BrokerageRules.sanitize($0.name).lowercased() == wanted }?.id
  }

  /// An ASCII name ignoring ASCII case; `brokerages_name` is an index of the NOCASE column.
  static let asciiMatchSQLite = "SELECT id FROM brokerages WHERE name = ? COLLATE NOCASE ORDER BY id"
  /// The same on PostgreSQL: `brokerages_name` is an index of `lower(name)`.
  static let asciiMatchPostgreSQL = """
    SELECT id FROM brokerages WHERE lower(name) = lower(?) AND octet_length(name) = length(name) ORDER BY id
    """
}
