import DeckValues
import Foundation
import Hummingbird
import OpenAPIRuntime
import PrefsRules
import SandboxKit

/// A write the recruiting API accepted: who sends it and what, checked. The handler stores it.
struct PrefsWrite: Sendable {
  enum Payload: Sendable {
    /// A complete document (POST).
    case document(PrefsValue)
    /// A merge patch of the player details (PATCH), checked field by field.
    case patch(JSONValue)
    /// Changes to record in the history.
    case history([FieldChange])
  }

  var user: AuthenticatedUser
  var category: PrefsCategory
  var payload: Payload

  @TaskLocal static var current: PrefsWrite?
}

/// Checks the recruiting API's writes before the generated server decodes them, in the order a
/// client learns most from: a valid token (401), the role (a parent may not change the player
/// details: 403), then the body with the same rules as deck's client (400 naming every wrong field,
/// 409 for repeated school preference ids). The generated decoder would only say "invalid request".
struct PrefsWriteMiddleware: ServerMiddleware {
  let state: SandboxState

  /// Operation id → category (nil: from the path, for the history).
  static let operations: [String: PrefsCategory?] = [
    "savePlayerPreferences": .player, "saveSchoolPreferences": .school,
    "saveNotificationsPreferences": .notifications, "saveDashboardPreferences": .dashboard,
    "saveLocationPreferences": .location, "patchPlayerDetails": .player, "recordPreferenceHistory": nil,
  ]

  func intercept(
    _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
    next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
  ) async throws -> (HTTPResponse, HTTPBody?) {
    guard let known = Self.operations[operationID] else { return try await next(request, body, metadata) }
    guard let user = try await state.bearerUser() else { return PrefsErrors.unauthorized.response }
    // The history's category is the path's; an unknown one is the generated server's 400.
    guard let category = known ?? Self.historyCategory(request.path) else {
      return try await next(request, body, metadata)
    }
    if category == .player && PrefsAccess.isParent(user) { return PrefsErrors.readOnly.response }
    let data = try await Data(collecting: body ?? HTTPBody(), upTo: RequestLimits.bodyBytes)
    guard let json = JSONValue.parse(data) else { return PrefsErrors.notJSON.response }
    let payload: PrefsWrite.Payload
    switch operationID {
    case "patchPlayerDetails":
      do {
        _ = try PlayerDetails().patched(with: json)
      } catch {
        return PrefsErrors.invalid(error).response
      }
      payload = .patch(json)
    case "recordPreferenceHistory":
      switch Self.readHistory(json) {
      case .success(let changes): payload = .history(changes)
      case .failure(let validation): return PrefsErrors.invalid(validation).response
      }
    default:
      switch PrefsRequest.read(json, as: category) {
      case .valid(let value): payload = .document(value)
      case .invalid(let validation): return PrefsErrors.invalid(validation).response
      case .conflict(let validation): return PrefsErrors.conflict(validation).response
      }
    }
    let write = PrefsWrite(user: user, category: category, payload: payload)
    return try await PrefsWrite.$current.withValue(write) {
      try await next(request, HTTPBody(data), metadata)
    }
  }

  /// `/api/user/preferences/{category}/history` → the category.
  static func historyCategory(_ path: String?) -> PrefsCategory? {
    let parts = (path ?? "").split(separator: "?", maxSplits: 1).first?.split(separator: "/") ?? []
    guard parts.count == 5, parts[4] == "history" else { return nil }
    return PrefsCategory(rawValue: String(parts[3]))
  }

  /// The most changes one record may hold.
  static let maximumChanges = 500

  /// `{"changes": [{"field": …, "old": …, "new": …}, …]}` as the contract's HistoryRecord says it,
  /// with every problem named.
  static func readHistory(_ json: JSONValue) -> Result<[FieldChange], Validation> {
    let shape = #"{"changes": [{"field": "gpa", "old": "3.5", "new": "3.8"}]}"#
    guard case .object(let object) = json else {
      return .failure(Validation([issue("body", json.literal, "is not a JSON object", shape)]))
    }
    var issues: [ValidationIssue] = object.keys.sorted().filter { $0 != "changes" }.map {
      issue($0, "", "is not a history record field", "only changes")
    }
    guard case .array(let items) = object["changes"] else {
      issues.append(issue("changes", object["changes"]?.literal ?? "", "is missing or not a list", shape))
      return .failure(Validation(issues))
    }
    if items.isEmpty || items.count > maximumChanges {
      issues.append(issue("changes", "\(items.count) changes", "is not 1 to \(maximumChanges) changes", shape))
    }
    var changes: [FieldChange] = []
    for (offset, item) in items.enumerated() {
      let position = offset + 1
      guard case .object(let entry) = item else {
        issues.append(issue("changes \(position)", item.literal, "is not a JSON object", shape))
        continue
      }
      for key in entry.keys.sorted() where !["field", "old", "new"].contains(key) {
        issues.append(issue("changes \(position) \(key)", "", "is not a change field", "field, old and new"))
      }
      var values: [String: String?] = [:]
      for key in ["field", "old", "new"] {
        switch entry[key] {
        case .string(let text)?: values[key] = .some(text)
        case .null? where key != "field": values[key] = .some(nil)
        case nil:
          issues.append(issue("changes \(position) \(key)", "", "is missing", key == "field" ? "text" : "text or null"))
        case .some(let other):
          issues.append(
            issue("changes \(position) \(key)", other.literal, "is not text", key == "field" ? "text" : "text or null"))
        }
      }
      guard let field = values["field"] ?? nil, let old = values["old"], let new = values["new"] else { continue }
      let change = FieldChange(field: field, old: old, new: new)
      issues += change.historyIssues(position: position)
      changes.append(change)
    }
    return issues.isEmpty ? .success(changes) : .failure(Validation(issues))
  }

  private static func issue(_ field: String, _ value: String, _ problem: String, _ allowed: String) -> ValidationIssue {
    let shown = value.isEmpty ? "" : value + " "
    return ValidationIssue(
      field: field, value: value, allowed: allowed, message: "\(field): \(shown)\(problem); use \(allowed)")
  }
}

/// The recruiting API's error bodies: `{"error": message, "issues": [{field, value, allowed, message}]}`.
enum PrefsErrors {
  static let unauthorized = SandboxAPIError.simple(.unauthorized, "a valid access token is required")
  static let readOnly = SandboxAPIError.simple(
    .forbidden, "Parents can read the player details but not change them; the athlete changes them.")
  static let notJSON = SandboxAPIError.simple(.badRequest, "The body is not a JSON document.")

  static func invalid(_ validation: Validation) -> SandboxAPIError { body(.badRequest, validation) }
  static func conflict(_ validation: Validation) -> SandboxAPIError { body(.conflict, validation) }

  private static func body(_ status: HTTPResponse.Status, _ validation: Validation) -> SandboxAPIError {
    SandboxAPIError(
      status: status,
      json: [
        "error": .string(validation.summary),
        "issues": .array(
          validation.issues.map { issue in
            .object([
              "field": .string(issue.field), "value": .string(issue.value), "allowed": .string(issue.allowed),
              "message": .string(issue.message),
            ])
          }),
      ])
  }
}

/// Who may do what with the player details.
enum PrefsAccess {
  static let parentRole = "parent"

  static func isParent(_ user: AuthenticatedUser) -> Bool { user.metadata["role"] == parentRole }
}
