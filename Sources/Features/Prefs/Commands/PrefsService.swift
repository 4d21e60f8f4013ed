import DeckAuth
import DeckCore
import DeckSupport
import DeckValues
import FoundationEssentials
import HTTPTypes
import OpenAPIRuntime
import PrefsRules
import RecruitingAPI

/// One category as the recruiting service returned it.
struct FetchedPrefs: Sendable {
  var value: PrefsValue
  /// Whether anything is stored (otherwise `value` is the defaults).
  var isStored: Bool
  /// Why a stored document was not used (it did not validate: the defaults are shown instead).
  var warnings: [String]
  /// Whose preferences these are (a parent reads the linked athlete's player details).
  var owner: String
  /// The signed-in user may not change them.
  var readOnly: Bool
  var updatedAt: Date?
  /// The document as the service sent it (for the offline cache).
  var document: JSONValue

  var category: PrefsCategory { value.category }

  init(category: PrefsCategory, document: JSONValue, owner: String, readOnly: Bool, updatedAt: Date?) throws {
    let stored = PrefsValue.decodeStored(category, try JSONEncoder().encode(document))
    value = stored.value
    warnings = stored.warnings
    isStored = document != .null
    self.owner = owner
    self.readOnly = readOnly
    self.updatedAt = updatedAt
    self.document = document
  }
}

/// The recruiting service's V2 preferences API (preferences.md, section 3), with the signed-in
/// user's token. Values go out normalised and validated (`PrefsValue.validated()`); every
/// successful write records its changes in the category's history.
struct PrefsService: Sendable {
  let context: DeckContext
  /// Whether what the service answers is kept in the offline cache (`--no-cache` turns it off).
  var caches = true

  typealias Schemas = RecruitingAPI.Components.Schemas

  /// A client of the recruiting service; `nulls` are the fields a merge patch clears.
  func client(nulls: [String] = []) async throws -> RecruitingAPI.Client {
    let paths = [
      "patchPlayerDetails": nulls.map { [$0] },
      "recordPreferenceHistory": [["changes", "*", "old"], ["changes", "*", "new"]],
    ]
    return try await context.client(.recruiting, auth: .required) { url, transport, middlewares in
      RecruitingAPI.Client(
        serverURL: url, transport: transport, middlewares: [RequestNullsMiddleware(paths: paths)] + middlewares)
    }
  }

  // MARK: Reading

  func fetch(_ category: PrefsCategory) async throws -> FetchedPrefs {
    let client = try await client()
    let envelope: Schemas.Preferences =
      switch category {
      case .player: try await client.getPlayerPreferences().ok.body.json
      case .school: try await client.getSchoolPreferences().ok.body.json
      case .notifications: try await client.getNotificationsPreferences().ok.body.json
      case .dashboard: try await client.getDashboardPreferences().ok.body.json
      case .location: try await client.getLocationPreferences().ok.body.json
      }
    let fetched = try Self.fetched(category, envelope)
    await remember(fetched)
    return fetched
  }

  /// Keeps `fetched` (what the service said last) in the offline cache, so that every command
  /// that reads or writes a category leaves the cache as the service has it. A cache that
  /// cannot be written only warns: the command itself succeeded.
  func remember(_ fetched: FetchedPrefs) async {
    guard caches else { return }
    do {
      try await PrefsCache(context: context).store(fetched)
    } catch {
      context.output.info(
        "warning: could not cache the \(fetched.category.noun): \(ErrorPresenter.deckError(for: error).message)")
    }
  }

  static func fetched(_ category: PrefsCategory, _ envelope: Schemas.Preferences) throws -> FetchedPrefs {
    try FetchedPrefs(
      category: category, document: try PrefsBody.json(envelope.data), owner: envelope.owner,
      readOnly: envelope.readOnly, updatedAt: envelope.updatedAt)
  }

  func history(_ category: PrefsCategory, limit: Int) async throws -> [Schemas.HistoryEntry] {
    try await client().getPreferenceHistory(path: .init(category: Self.schema(category)), query: .init(limit: limit))
      .ok.body.json
  }

  // MARK: Writing

  /// What a write did.
  struct Saved: Sendable {
    var value: PrefsValue
    var changes: [FieldChange]
    /// Why the changes are not in the history (the write itself succeeded).
    var historyProblem: String?
    var fitScoreRecalculated: Bool
  }

  /// Stores `value` (already validated) over `previous` (what was fetched): the player details
  /// as a merge patch of what differs, every other category whole. Then records the changes.
  func save(_ value: PrefsValue, over previous: PrefsValue) async throws -> Saved {
    let envelope: Schemas.Preferences
    switch value {
    case .player(let player):
      let old = (previous.model as? PlayerDetails) ?? PlayerDetails()
      let patch = old.mergePatch(to: player)
      let nulls: [String] =
        if case .object(let object) = patch { object.entries.filter { $0.value == .null }.map(\.key).sorted() } else {
          []
        }
      let body = try PrefsBody.typed(Schemas.PlayerDetails.self, from: patch)
      envelope = try await client(nulls: nulls).patchPlayerDetails(body: .json(body)).ok.body.json
    case .school(let school):
      envelope = try await client().saveSchoolPreferences(body: .json(try PrefsBody.typed(school))).ok.body.json
    case .notifications(let settings):
      envelope = try await client().saveNotificationsPreferences(body: .json(try PrefsBody.typed(settings))).ok.body
        .json
    case .dashboard(let dashboard):
      envelope = try await client().saveDashboardPreferences(body: .json(try PrefsBody.typed(dashboard))).ok.body.json
    case .location(let location):
      envelope = try await client().saveLocationPreferences(body: .json(try PrefsBody.typed(location))).ok.body.json
    }
    await remember(try Self.fetched(value.category, envelope))
    let changes = previous.changes(to: value)
    return Saved(
      value: value, changes: changes, historyProblem: await recordQuietly(value.category, changes),
      fitScoreRecalculated: envelope.fitScoreRecalculated ?? false)
  }

  /// Deletes the stored document of `previous`'s category; false when nothing was stored. The
  /// cache then holds "nothing stored" for `previous`'s owner.
  func delete(_ previous: FetchedPrefs) async throws -> Bool {
    let category = previous.category
    let client = try await client()
    let deleted: Schemas.Deleted =
      switch category {
      case .player: try await client.deletePlayerPreferences().ok.body.json
      case .school: try await client.deleteSchoolPreferences().ok.body.json
      case .notifications: try await client.deleteNotificationsPreferences().ok.body.json
      case .dashboard: try await client.deleteDashboardPreferences().ok.body.json
      case .location: try await client.deleteLocationPreferences().ok.body.json
      }
    await remember(
      try FetchedPrefs(category: category, document: .null, owner: previous.owner, readOnly: false, updatedAt: nil))
    return deleted.deleted
  }

  /// The most changes one history request carries.
  static let historyBatch = 500

  /// Records `changes` in the history; returns why it failed instead of throwing (the write it
  /// describes has succeeded).
  func recordQuietly(_ category: PrefsCategory, _ changes: [FieldChange]) async -> String? {
    do {
      try await record(category, changes)
      return nil
    } catch {
      return ErrorPresenter.deckError(for: error).message
    }
  }

  func record(_ category: PrefsCategory, _ changes: [FieldChange]) async throws {
    guard !changes.isEmpty else { return }
    let client = try await client()
    var start = 0
    while start < changes.count {
      let batch = changes[start..<min(start + Self.historyBatch, changes.count)].map { change in
        let cut = change.truncatedForHistory()
        return Schemas.HistoryChange(field: cut.field, old: cut.old, new: cut.new)
      }
      _ = try await client.recordPreferenceHistory(
        path: .init(category: Self.schema(category)), body: .json(.init(changes: batch))
      ).created
      start += Self.historyBatch
    }
  }

  static func schema(_ category: PrefsCategory) -> Schemas.Category {
    Schemas.Category(rawValue: category.rawValue) ?? .player
  }

  // MARK: Roles

  /// Refuses a change to the player details when the token says the user is a parent, before
  /// anything is sent (exit 77); the service would refuse it too (403).
  func requireWritable(_ category: PrefsCategory) async throws {
    guard category == .player else { return }
    let token = try await context.accessToken()
    guard let claims = JWTClaims(token: token), claims.role == "parent" else { return }
    throw Self.readOnly(email: claims.email)
  }

  static func readOnly(email: String?) -> DeckError {
    DeckError(
      .unauthorized(status: nil),
      "Player details are read-only for parents\(email.map { " (signed in as \($0))" } ?? ""); nothing was sent.",
      hint: "The athlete changes them: deck auth login --email ATHLETE_EMAIL --password-stdin")
  }
}

/// Values as the generated client carries them, through their JSON.
enum PrefsBody {
  /// A generated body type from a category's value.
  static func typed<Body: Decodable>(_ value: some Encodable) throws -> Body {
    try JSONDecoder().decode(Body.self, from: JSONEncoder().encode(value))
  }

  static func typed<Body: Decodable>(_ type: Body.Type, from json: JSONValue) throws -> Body {
    try JSONDecoder().decode(Body.self, from: JSONEncoder().encode(json))
  }

  /// Any JSON the generated client decoded, as a `JSONValue`.
  static func json(_ container: OpenAPIValueContainer) throws -> JSONValue {
    JSONValue.parse(try JSONEncoder().encode(container)) ?? .null
  }
}

/// Puts back the `null`s the generated encoder leaves out of request bodies: a merge patch
/// clears a field with `null` (`patchPlayerDetails`), and a history change without an old or new
/// value says so with `null` (the contract requires the keys). Paths as `JSONNulls` takes them.
struct RequestNullsMiddleware: ClientMiddleware {
  let paths: [String: [[String]]]

  func intercept(
    _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
    next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
  ) async throws -> (HTTPResponse, HTTPBody?) {
    guard let keyPaths = paths[operationID], let body else { return try await next(request, body, baseURL) }
    let data = try await Data(collecting: body, upTo: 1 << 20)
    var head = request
    head.headerFields[.contentLength] = nil
    return try await next(head, HTTPBody(JSONNulls.fill(data, keyPaths)), baseURL)
  }
}
