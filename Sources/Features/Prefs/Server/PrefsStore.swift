import Foundation
import PrefsRules
internal import SQLKit
import SandboxKit

/// The recruiting service's tables (preferences.md, section 3): `user_preferences` (one JSON
/// document per user per category), `user_preference_history` (the changes clients record),
/// `family_links` (which athlete a parent follows) and `fit_score_recalculations` (what the
/// player save hook triggered).
enum PrefsSchema {
  static func register(in migrations: inout SchemaMigrations) {
    migrations.add(
      "v1-prefs",
      script: """
        CREATE TABLE user_preferences (
          user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          category TEXT NOT NULL
            CHECK (category IN ('player', 'school', 'notifications', 'dashboard', 'location')),
          data TEXT NOT NULL,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL,
          PRIMARY KEY (user_id, category)
        );
        CREATE TABLE user_preference_history (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          category TEXT NOT NULL,
          field TEXT NOT NULL,
          old_value TEXT,
          new_value TEXT,
          changed_at TEXT NOT NULL,
          changed_by TEXT NOT NULL
        );
        CREATE INDEX user_preference_history_user ON user_preference_history(user_id, category, id);
        CREATE TABLE family_links (
          parent_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          athlete_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          created_at TEXT NOT NULL,
          PRIMARY KEY (parent_id, athlete_id)
        );
        CREATE TABLE fit_score_recalculations (
          user_id TEXT PRIMARY KEY NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          count INTEGER NOT NULL,
          last_at TEXT NOT NULL
        );
        """)
  }
}

/// A stored document and its timestamps.
struct StoredDocument: Sendable, Equatable, Decodable {
  /// The document's JSON text, as stored.
  var data: String
  var createdAt: String
  var updatedAt: String
}

/// A recorded change.
struct HistoryRow: Sendable, Equatable, Decodable {
  var id: Int
  var category: PrefsCategory
  var field: String
  var old: String?
  var new: String?
  var changedAt: String
  var changedBy: String

  /// Its columns' names, in camel case (``SQLRow/decode(_:)``).
  private enum CodingKeys: String, CodingKey {
    case id, category, field, changedAt, changedBy
    case old = "oldValue"
    case new = "newValue"
  }
}

/// Reads and writes of the recruiting tables, inside the caller's transaction.
enum PrefsStore {
  static func document(_ db: any SQLDatabase, userID: String, category: PrefsCategory) async throws
    -> StoredDocument?
  {
    try await db.fetchOne(
      StoredDocument.self,
      "SELECT data, created_at, updated_at FROM user_preferences WHERE user_id = ? AND category = ?",
      [userID, category.rawValue])
  }

  /// Stores `json` (a JSON text) as the category's document; `created_at` is kept when one existed.
  @discardableResult
  static func store(_ db: any SQLDatabase, userID: String, category: PrefsCategory, json: String) async throws
    -> StoredDocument
  {
    let now = Timestamps.now()
    try await db.execute(
      """
      INSERT INTO user_preferences (user_id, category, data, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (user_id, category) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at
      """,
      [userID, category.rawValue, json, now, now])
    guard let stored = try await document(db, userID: userID, category: category) else {
      throw SandboxAPIError.internalError
    }
    return stored
  }

  /// Deletes the category's document; false when there was none.
  static func delete(_ db: any SQLDatabase, userID: String, category: PrefsCategory) async throws -> Bool {
    try await db.fetchOne(
      "DELETE FROM user_preferences WHERE user_id = ? AND category = ? RETURNING 1", [userID, category.rawValue])
      != nil
  }

  /// The category's recorded changes, newest first.
  static func history(_ db: any SQLDatabase, userID: String, category: PrefsCategory, limit: Int) async throws
    -> [HistoryRow]
  {
    try await db.fetchAll(
      HistoryRow.self,
      """
      SELECT * FROM user_preference_history WHERE user_id = ? AND category = ? ORDER BY id DESC LIMIT ?
      """,
      [userID, category.rawValue, limit])
  }

  /// Records `changes` (already checked), in order; returns the entries.
  static func record(
    _ db: any SQLDatabase, userID: String, by email: String, category: PrefsCategory, changes: [FieldChange]
  ) async throws -> [HistoryRow] {
    guard !changes.isEmpty else { return [] }
    let now = Timestamps.now()
    // One statement for every change: a round trip per row made a 200-change import take
    // seconds on PostgreSQL. Ids are assigned in the order of the VALUES rows.
    let values = SQLRows.values("(?, ?, ?, ?, ?, ?, ?)", count: changes.count)
    let binds: [any Encodable & Sendable] = changes.flatMap { change -> [any Encodable & Sendable] in
      [userID, category.rawValue, change.field, change.old, change.new, now, email]
    }
    let ids = try await db.fetchColumn(
      Int.self,
      """
      INSERT INTO user_preference_history (user_id, category, field, old_value, new_value, changed_at, changed_by)
      VALUES \(values) RETURNING id
      """, binds
    ).sorted()
    guard ids.count == changes.count else { throw SandboxAPIError.internalError }
    return zip(ids, changes).map { id, change in
      HistoryRow(
        id: id, category: category, field: change.field, old: change.old, new: change.new, changedAt: now,
        changedBy: email)
    }
  }

  // MARK: Families and the fit score hook

  /// The athlete a parent is linked to (the first link), if any.
  static func linkedAthlete(_ db: any SQLDatabase, parentID: String) async throws -> UserRecord? {
    guard
      let id = try await db.fetchValue(
        String.self, "SELECT athlete_id FROM family_links WHERE parent_id = ? ORDER BY created_at, athlete_id LIMIT 1",
        [parentID])
    else { return nil }
    return try await UserRecord.fetch(db, id: id)
  }

  /// The emails of the parents linked to an athlete.
  static func linkedParents(_ db: any SQLDatabase, athleteID: String) async throws -> [String] {
    try await db.fetchColumn(
      String.self,
      """
      SELECT users.email FROM family_links JOIN users ON users.id = family_links.parent_id
      WHERE family_links.athlete_id = ? ORDER BY users.email
      """,
      [athleteID])
  }

  static func link(_ db: any SQLDatabase, parentID: String, athleteID: String) async throws {
    try await db.execute(
      "INSERT INTO family_links (parent_id, athlete_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
      [parentID, athleteID, Timestamps.now()])
  }

  /// The spec's post-save hook of the player details: the fit scores are recalculated (the
  /// sandbox counts the recalculations; `deck sandbox inspect prefs` shows the count).
  static func recalculateFitScores(_ db: any SQLDatabase, userID: String) async throws {
    try await db.execute(
      """
      INSERT INTO fit_score_recalculations (user_id, count, last_at) VALUES (?, 1, ?)
      ON CONFLICT (user_id) DO UPDATE SET count = fit_score_recalculations.count + 1, last_at = excluded.last_at
      """,
      [userID, Timestamps.now()])
  }

  static func fitScoreRecalculations(_ db: any SQLDatabase, userID: String) async throws -> Int {
    try await db.fetchValue(Int.self, "SELECT count FROM fit_score_recalculations WHERE user_id = ?", [userID]) ?? 0
  }
}

extension PrefsValue {
  /// The value as stored: JSON text with sorted keys.
  func storedJSON() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(self), as: UTF8.self)
  }
}
