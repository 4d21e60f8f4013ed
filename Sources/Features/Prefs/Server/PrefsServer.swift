import Foundation
import Hummingbird
import PrefsRules
package import SQLKit
import SandboxKit

/// The preferences' part of the sandbox (preferences.md): the recruiting service's V2 category
/// API (RecruitingAPI) with its tables, roles and post-save hook; the geocoder the home location
/// uses (GeocoderAPI, answered from a US ZIP-centroid table); and the operator endpoints under
/// /__sandbox/v1/prefs. The seed adds a demo athlete and a parent linked to them.
package enum PrefsServer: SandboxFeature {
  package static let name = "prefs"

  package static let athleteEmail = "athlete@sandbox.test"
  package static let parentEmail = "parent@sandbox.test"

  package static func registerMigrations(in migrations: inout SchemaMigrations) {
    PrefsSchema.register(in: &migrations)
    PhotoStorageSchema.register(in: &migrations)
  }

  /// `athlete@sandbox.test` (role athlete) and `parent@sandbox.test` (role parent, linked to the
  /// athlete, whose email is also in the parent's metadata as `athlete_email`), both with the
  /// password `sandbox`.
  package static func seed(_ db: any SQLDatabase, sandbox: SeedContext) async throws {
    let athleteID = try await sandbox.createUser(
      db, id: seedID(athleteEmail), email: athleteEmail, passwordHash: SandboxSeed.demoPasswordHash,
      metadata: ["role": "athlete"])
    let parentID = try await sandbox.createUser(
      db, id: seedID(parentEmail), email: parentEmail, passwordHash: SandboxSeed.demoPasswordHash,
      metadata: ["role": "parent", "athlete_email": athleteEmail])
    try await PrefsStore.link(db, parentID: parentID, athleteID: athleteID)
  }

  /// Stable ids, so that a reset gives the demo users the ids they had.
  static func seedID(_ email: String) -> String {
    NameUUID.make(namespace: namespace, name: email).uuidString.lowercased()
  }

  private static let namespace = UUID(uuidString: "5C1B7E52-2F0A-4D8B-9E3C-1A6F0D4B8C27") ?? UUID()

  package static func registerRoutes(on routes: SandboxRoutes) throws {
    let state = routes.state
    let nullable: [[String]] = [["createdAt"], ["updatedAt"], ["data"]]
    let envelopes =
      [
        "Player", "School", "Notifications", "Dashboard", "Location",
      ].flatMap { ["get\($0)Preferences", "save\($0)Preferences"] } + ["patchPlayerDetails"]
    var nulls = Dictionary(uniqueKeysWithValues: envelopes.map { ($0, nullable) })
    nulls["getPreferenceHistory"] = [["*", "old"], ["*", "new"]]
    nulls["recordPreferenceHistory"] = [["*", "old"], ["*", "new"]]
    try PrefsHandlers(state: state).registerHandlers(
      on: routes.transport, serverURL: SandboxRoutes.root, configuration: SandboxRoutes.configuration,
      middlewares: [
        ErrorResponseMiddleware(requestError: Self.requestError), ExplicitNullsMiddleware(nulls),
        PrefsWriteMiddleware(state: state),
      ])
    try GeocoderHandlers().registerHandlers(
      on: routes.transport, serverURL: SandboxRoutes.root, configuration: SandboxRoutes.configuration,
      middlewares: [ErrorResponseMiddleware(requestError: GeocoderHandlers.requestError)])
    // The profile photo: Supabase Storage's API, bodies up to the bucket's 5 MB (and 64 KB for
    // a multipart form's framing and fields; the file part is held to 5 MB).
    routes.limitBodies(
      under: StorageHandlers.prefix, to: ProfilePhoto.maximumBytes + 64 * 1024, refusal: StorageErrors.tooLarge)
    let folderNulls = ["id", "created_at", "updated_at", "last_accessed_at", "metadata"].map { ["*", $0] }
    try StorageHandlers(state: state).registerHandlers(
      on: routes.transport, serverURL: SandboxRoutes.root, configuration: SandboxRoutes.configuration,
      middlewares: [
        ErrorResponseMiddleware(requestError: StorageHandlers.requestError), StorageHeadersMiddleware(),
        ExplicitNullsMiddleware(["listObjects": folderNulls]),
      ])
    try PrefsAdminHandlers(state: state).registerHandlers(
      on: routes.transport, serverURL: SandboxRoutes.operatorURL(Self.self), configuration: SandboxRoutes.configuration,
      middlewares: [
        ErrorResponseMiddleware(requestError: PrefsAdminHandlers.requestError),
        ExplicitNullsMiddleware([
          "inspectPrefs": [
            ["role"], ["linkedAthlete"], ["categories", "*", "data"], ["categories", "*", "createdAt"],
            ["categories", "*", "updatedAt"], ["categories", "*", "history", "*", "old"],
            ["categories", "*", "history", "*", "new"],
          ]
        ]),
      ])
  }

  package static func counts(_ db: any SQLDatabase) async throws -> [String: Int] {
    [
      "preferences": try await db.fetchValue(Int.self, "SELECT count(*) FROM user_preferences") ?? 0,
      "photos": try await PhotoStorageStore.count(db),
    ]
  }

  /// A request the generated server could not decode (a category or limit that is not one).
  @Sendable static func requestError(operationID: String, request: HTTPRequest, status: HTTPResponse.Status)
    -> SandboxAPIError
  {
    let message =
      switch operationID {
      case "getPreferenceHistory", "recordPreferenceHistory":
        "category must be player, school, notifications, dashboard or location; limit a whole number from 1 to 1000; a history record {\"changes\": [{\"field\", \"old\", \"new\"}]}"
      default:
        "The body must be a JSON object of the category's fields (see the recruiting contract)."
      }
    return .simple(.badRequest, message)
  }
}
