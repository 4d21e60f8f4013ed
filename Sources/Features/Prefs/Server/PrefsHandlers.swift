import Foundation
import OpenAPIRuntime
import PrefsRules
import RecruitingAPI
internal import SQLKit
import SandboxKit

/// The recruiting service's V2 preferences API (preferences.md, section 3) on the sandbox
/// database. Writes arrive checked by `PrefsWriteMiddleware`; reads and deletes check the token
/// (and the role) here.
struct PrefsHandlers: RecruitingAPI.APIProtocol {
  let state: SandboxState

  typealias Schemas = RecruitingAPI.Components.Schemas

  // MARK: GET /api/user/preferences/{category}

  func getPlayerPreferences(_ input: Operations.getPlayerPreferences.Input) async throws
    -> Operations.getPlayerPreferences.Output
  { .ok(.init(body: .json(try await read(.player)))) }

  func getSchoolPreferences(_ input: Operations.getSchoolPreferences.Input) async throws
    -> Operations.getSchoolPreferences.Output
  { .ok(.init(body: .json(try await read(.school)))) }

  func getNotificationsPreferences(_ input: Operations.getNotificationsPreferences.Input) async throws
    -> Operations.getNotificationsPreferences.Output
  { .ok(.init(body: .json(try await read(.notifications)))) }

  func getDashboardPreferences(_ input: Operations.getDashboardPreferences.Input) async throws
    -> Operations.getDashboardPreferences.Output
  { .ok(.init(body: .json(try await read(.dashboard)))) }

  func getLocationPreferences(_ input: Operations.getLocationPreferences.Input) async throws
    -> Operations.getLocationPreferences.Output
  { .ok(.init(body: .json(try await read(.location)))) }

  // MARK: POST /api/user/preferences/{category}

  func savePlayerPreferences(_ input: Operations.savePlayerPreferences.Input) async throws
    -> Operations.savePlayerPreferences.Output
  { .ok(.init(body: .json(try await write()))) }

  func saveSchoolPreferences(_ input: Operations.saveSchoolPreferences.Input) async throws
    -> Operations.saveSchoolPreferences.Output
  { .ok(.init(body: .json(try await write()))) }

  func saveNotificationsPreferences(_ input: Operations.saveNotificationsPreferences.Input) async throws
    -> Operations.saveNotificationsPreferences.Output
  { .ok(.init(body: .json(try await write()))) }

  func saveDashboardPreferences(_ input: Operations.saveDashboardPreferences.Input) async throws
    -> Operations.saveDashboardPreferences.Output
  { .ok(.init(body: .json(try await write()))) }

  func saveLocationPreferences(_ input: Operations.saveLocationPreferences.Input) async throws
    -> Operations.saveLocationPreferences.Output
  { .ok(.init(body: .json(try await write()))) }

  func patchPlayerDetails(_ input: Operations.patchPlayerDetails.Input) async throws
    -> Operations.patchPlayerDetails.Output
  { .ok(.init(body: .json(try await write()))) }

  // MARK: DELETE /api/user/preferences/{category}

  func deletePlayerPreferences(_ input: Operations.deletePlayerPreferences.Input) async throws
    -> Operations.deletePlayerPreferences.Output
  { .ok(.init(body: .json(try await delete(.player)))) }

  func deleteSchoolPreferences(_ input: Operations.deleteSchoolPreferences.Input) async throws
    -> Operations.deleteSchoolPreferences.Output
  { .ok(.init(body: .json(try await delete(.school)))) }

  func deleteNotificationsPreferences(_ input: Operations.deleteNotificationsPreferences.Input) async throws
    -> Operations.deleteNotificationsPreferences.Output
  { .ok(.init(body: .json(try await delete(.notifications)))) }

  func deleteDashboardPreferences(_ input: Operations.deleteDashboardPreferences.Input) async throws
    -> Operations.deleteDashboardPreferences.Output
  { .ok(.init(body: .json(try await delete(.dashboard)))) }

  func deleteLocationPreferences(_ input: Operations.deleteLocationPreferences.Input) async throws
    -> Operations.deleteLocationPreferences.Output
  { .ok(.init(body: .json(try await delete(.location)))) }

  // MARK: History

  /// The history's largest page.
  static let historyLimits = 1...1000

  func getPreferenceHistory(_ input: Operations.getPreferenceHistory.Input) async throws
    -> Operations.getPreferenceHistory.Output
  {
    let user = try await state.requireBearerUser(orThrow: PrefsErrors.unauthorized)
    guard let category = PrefsCategory(rawValue: input.path.category.rawValue) else {
      throw SandboxAPIError.internalError
    }
    let limit = input.query.limit ?? 50
    guard Self.historyLimits.contains(limit) else {
      throw PrefsErrors.invalid(
        Validation([
          ValidationIssue(
            field: "limit", value: String(limit), allowed: "1–1000",
            message: "limit: \(limit) is out of range; allowed 1–1000")
        ]))
    }
    let rows = try await state.database.read { db in
      let owner = try await Self.owner(db, user: user, category: category)
      return try await PrefsStore.history(db, userID: owner.id, category: category, limit: limit)
    }
    return .ok(.init(body: .json(rows.map(Self.entry))))
  }

  func recordPreferenceHistory(_ input: Operations.recordPreferenceHistory.Input) async throws
    -> Operations.recordPreferenceHistory.Output
  {
    let write = try Self.checkedWrite()
    guard case .history(let changes) = write.payload else { throw SandboxAPIError.internalError }
    let rows = try await state.database.write { db in
      try await PrefsStore.record(
        db, userID: write.user.id, by: write.user.email, category: write.category, changes: changes)
    }
    return .created(.init(body: .json(rows.map(Self.entry))))
  }

  // MARK: The work

  /// The signed-in user's document of `category`, or for a parent's player details the linked
  /// athlete's (read-only).
  func read(_ category: PrefsCategory) async throws -> Schemas.Preferences {
    let user = try await state.requireBearerUser(orThrow: PrefsErrors.unauthorized)
    return try await state.database.read { db in
      let owner = try await Self.owner(db, user: user, category: category)
      let stored = try await PrefsStore.document(db, userID: owner.id, category: category)
      return try Self.envelope(
        category, stored, owner: owner, readOnly: category == .player && PrefsAccess.isParent(user))
    }
  }

  /// Stores what `PrefsWriteMiddleware` accepted; a player save runs the fit score hook.
  func write() async throws -> Schemas.Preferences {
    let write = try Self.checkedWrite()
    let user = write.user
    let category = write.category
    return try await state.database.write { db in
      let value: PrefsValue
      switch write.payload {
      case .document(let document):
        value = document
      case .patch(let patch):
        let stored = try await PrefsStore.document(db, userID: user.id, category: .player)
        let current = PlayerDetails.decodeStored(stored.map { Data($0.data.utf8) }).value
        do throws(Validation) {
          value = .player(try current.patched(with: patch))
        } catch {
          throw PrefsErrors.invalid(error)
        }
      case .history:
        throw SandboxAPIError.internalError
      }
      let stored = try await PrefsStore.store(
        db, userID: user.id, category: category, json: try value.storedJSON())
      let recalculates = category == .player
      if recalculates { try await PrefsStore.recalculateFitScores(db, userID: user.id) }
      // The flag goes into the initializer, never set afterwards: Swift 6.3.1's optimizer (-O)
      // dropped the initializer's nil when a branch set it later, so release builds answered
      // other categories' saves with whatever byte the buffer held (true or false; issue 46).
      return try Self.envelope(
        category, stored, owner: (user.id, user.email), readOnly: false,
        fitScoreRecalculated: recalculates ? true : nil)
    }
  }

  func delete(_ category: PrefsCategory) async throws -> Schemas.Deleted {
    let user = try await state.requireBearerUser(orThrow: PrefsErrors.unauthorized)
    if category == .player && PrefsAccess.isParent(user) { throw PrefsErrors.readOnly }
    let deleted = try await state.database.write { db in
      try await PrefsStore.delete(db, userID: user.id, category: category)
    }
    return .init(category: Self.schema(category), deleted: deleted)
  }

  static func checkedWrite() throws -> PrefsWrite {
    guard let write = PrefsWrite.current else { throw SandboxAPIError.internalError }
    return write
  }

  /// Whose preferences `user` reads: their own, or for a parent's player details the athlete
  /// they are linked to (their own when there is none).
  static func owner(_ db: any SQLDatabase, user: AuthenticatedUser, category: PrefsCategory) async throws -> (
    id: String, email: String
  ) {
    if category == .player && PrefsAccess.isParent(user),
      let athlete = try await PrefsStore.linkedAthlete(db, parentID: user.id)
    {
      return (athlete.id, athlete.email)
    }
    return (user.id, user.email)
  }

  /// `fitScoreRecalculated`: true on a player save, else nil (absent, as the contract says).
  static func envelope(
    _ category: PrefsCategory, _ stored: StoredDocument?, owner: (id: String, email: String), readOnly: Bool,
    fitScoreRecalculated: Bool? = nil
  ) throws -> Schemas.Preferences {
    Schemas.Preferences(
      category: schema(category), data: try PrefsJSON.container(stored?.data), owner: owner.email,
      ownerId: owner.id, readOnly: readOnly,
      createdAt: stored.flatMap { PrefsJSON.date($0.createdAt) },
      updatedAt: stored.flatMap { PrefsJSON.date($0.updatedAt) }, fitScoreRecalculated: fitScoreRecalculated)
  }

  static func schema(_ category: PrefsCategory) -> Schemas.Category {
    Schemas.Category(rawValue: category.rawValue) ?? .player
  }

  static func entry(_ row: HistoryRow) -> Schemas.HistoryEntry {
    .init(
      id: row.id, category: schema(row.category), field: row.field, old: row.old, new: row.new,
      changedAt: PrefsJSON.date(row.changedAt) ?? Date(timeIntervalSince1970: 0), changedBy: row.changedBy)
  }
}

/// Stored JSON text and timestamps as the generated types carry them.
enum PrefsJSON {
  /// A stored JSON text as any JSON value (null when nothing is stored).
  static func container(_ text: String?) throws -> OpenAPIValueContainer {
    guard let text else { return try OpenAPIValueContainer(unvalidatedValue: nil) }
    return try JSONDecoder().decode(OpenAPIValueContainer.self, from: Data(text.utf8))
  }

  static func date(_ text: String) -> Date? { try? Date(text, strategy: .iso8601) }
}
