import Foundation
import Hummingbird
import OpenAPIRuntime
import PrefsRules
internal import SQLKit
import SandboxKit
import SandboxPrefsAPI

/// The preferences operator endpoints under /__sandbox/v1/prefs: what the recruiting service
/// stores for a user, and storing a document as is (to see how clients handle a corrupted one).
struct PrefsAdminHandlers: SandboxPrefsAPI.APIProtocol {
  let state: SandboxState

  typealias Schemas = SandboxPrefsAPI.Components.Schemas

  /// The most history entries `inspect` shows per category.
  static let historyLimit = 1000

  func inspectPrefs(_ input: Operations.inspectPrefs.Input) async throws -> Operations.inspectPrefs.Output {
    guard !ContractText.trim(input.query.email).isEmpty else {
      return .badRequest(.init(body: .json(.init(error: "email is required"))))
    }
    let email = EmailAddress.normalize(input.query.email)
    return try await state.database.read { db -> Operations.inspectPrefs.Output in
      guard let user = try await UserRecord.fetch(db, email: email) else {
        return .notFound(.init(body: .json(.init(error: "No user \(email)"))))
      }
      var categories: [Schemas.CategoryState] = []
      for category in PrefsCategory.allCases {
        let stored = try await PrefsStore.document(db, userID: user.id, category: category)
        let history = try await PrefsStore.history(
          db, userID: user.id, category: category, limit: Self.historyLimit)
        categories.append(
          Schemas.CategoryState(
            category: Self.schema(category), data: try PrefsJSON.container(stored?.data),
            createdAt: stored.flatMap { PrefsJSON.date($0.createdAt) },
            updatedAt: stored.flatMap { PrefsJSON.date($0.updatedAt) },
            history: history.map {
              .init(
                id: $0.id, field: $0.field, old: $0.old, new: $0.new,
                changedAt: PrefsJSON.date($0.changedAt) ?? Date(timeIntervalSince1970: 0), changedBy: $0.changedBy)
            }))
      }
      let role = user.metadataStrings["role"]
      let linkedAthlete = try await PrefsStore.linkedAthlete(db, parentID: user.id)?.email
      let linkedParents = try await PrefsStore.linkedParents(db, athleteID: user.id)
      let fitScoreRecalculations = try await PrefsStore.fitScoreRecalculations(db, userID: user.id)
      return .ok(
        .init(
          body: .json(
            .init(
              email: user.email, role: role,
              linkedAthlete: linkedAthlete, linkedParents: linkedParents,
              fitScoreRecalculations: fitScoreRecalculations,
              categories: categories))))
    }
  }

  func storePrefs(_ input: Operations.storePrefs.Input) async throws -> Operations.storePrefs.Output {
    guard case .json(let body) = input.body else { throw SandboxAPIError.internalError }
    guard !ContractText.trim(body.email).isEmpty else {
      return .badRequest(.init(body: .json(.init(error: "email is required"))))
    }
    guard let category = PrefsCategory(rawValue: body.category.rawValue) else { throw SandboxAPIError.internalError }
    let email = EmailAddress.normalize(body.email)
    let json: String? =
      body.data.value == nil ? nil : String(decoding: try JSONEncoder().encode(body.data), as: UTF8.self)
    return try await state.database.write { db -> Operations.storePrefs.Output in
      guard let user = try await UserRecord.fetch(db, email: email) else {
        return .notFound(.init(body: .json(.init(error: "No user \(email)"))))
      }
      if let json {
        try await PrefsStore.store(db, userID: user.id, category: category, json: json)
      } else {
        _ = try await PrefsStore.delete(db, userID: user.id, category: category)
      }
      return .ok(.init(body: .json(.init(email: user.email, category: body.category, stored: json != nil))))
    }
  }

  static func schema(_ category: PrefsCategory) -> Schemas.Category {
    Schemas.Category(rawValue: category.rawValue) ?? .player
  }

  @Sendable static func requestError(operationID: String, request: HTTPRequest, status: HTTPResponse.Status)
    -> SandboxAPIError
  {
    switch operationID {
    case "storePrefs":
      .simple(
        .badRequest,
        "The body must be {\"email\": string, \"category\": player|school|notifications|dashboard|location, \"data\": any JSON}."
      )
    default:
      .simple(.badRequest, "email is required")
    }
  }
}
