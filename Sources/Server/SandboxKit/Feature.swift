import Foundation
import Hummingbird
import OpenAPIRuntime
package import SQLKit

/// A feature's part of the sandbox server, declared in one place: its tables, its default
/// data, what a new user gets, its routes, and what `deck sandbox status` and `seed` know
/// of it. The server, the database, the seed and the new-user hooks iterate over the
/// registered features (`Sources/Client/App/Registry.swift`) and name none of them.
///
/// The feature's `deck sandbox inspect|trigger` subcommands are client commands; its
/// `DeckModule` declares them (``DeckModule/sandboxCommands``), next to its other commands.
package protocol SandboxFeature: SendableMetatype {
  /// The feature's name: its operator endpoints live under `/__sandbox/v1/<name>`.
  static var name: String { get }

  /// Appends the feature's schema migrations. Append only: a migration that has shipped is
  /// never edited, and its identifier never changes. Migrations run in registry order, after
  /// the core's (`meta`, `users`, sessions).
  static func registerMigrations(in migrations: inout SchemaMigrations)

  /// Inserts whatever default data of the feature is missing (a fresh database, a reset,
  /// `deck sandbox seed`); rows that exist are kept. Runs after the core seed (the JWT secret
  /// and the demo owner) and after the features registered before it.
  static func seed(_ db: any SQLDatabase, sandbox: SeedContext) async throws

  /// What a new user gets, like the backend's triggers on `auth.users` (signup, and users
  /// that seeds create).
  static func userCreated(_ user: NewUser, in db: any SQLDatabase) async throws

  /// Registers the feature's contract routes, its operator routes (under
  /// `/__sandbox/v1/<name>`) and any pages it serves.
  static func registerRoutes(on routes: SandboxRoutes) throws

  /// Row counts for `deck sandbox status`, e.g. `["brokerages": 250]`.
  static func counts(_ db: any SQLDatabase) async throws -> [String: Int]

  /// Generators of synthetic data for benchmarks, by kind (`deck sandbox seed --synthetic KIND=N`
  /// asks for N rows of KIND). Each adds that many rows, continuing its sequence.
  static var syntheticData: [String: SyntheticData] { get }
}

extension SandboxFeature {
  package static func registerMigrations(in migrations: inout SchemaMigrations) {}
  package static func seed(_ db: any SQLDatabase, sandbox: SeedContext) async throws {}
  package static func userCreated(_ user: NewUser, in db: any SQLDatabase) async throws {}
  package static func counts(_ db: any SQLDatabase) async throws -> [String: Int] { [:] }
  package static var syntheticData: [String: SyntheticData] { [:] }
}

/// Adds that many rows of one kind of synthetic data, continuing its sequence.
package typealias SyntheticData = @Sendable (any SQLDatabase, Int) async throws -> Void

/// A user that was just created.
package struct NewUser: Sendable, Equatable {
  package var id: String
  package var email: String
  /// `user_metadata`, e.g. `{"role": "parent"}`.
  package var metadata: [String: String]

  package init(id: String, email: String, metadata: [String: String] = [:]) {
    self.id = id
    self.email = email
    self.metadata = metadata
  }
}

/// What a feature's seed may do beyond inserting its own rows: create users (which runs every
/// feature's new-user hook, as a signup would).
package struct SeedContext: Sendable {
  let features: [any SandboxFeature.Type]

  /// Creates a user with a precomputed bcrypt hash unless the email exists; returns the
  /// user's id either way. Metadata values are strings (`{"role": "athlete"}`).
  @discardableResult
  package func createUser(
    _ db: any SQLDatabase, id: String, email: String, passwordHash: String, metadata: [String: String] = [:]
  ) async throws -> String {
    if let existing = try await UserRecord.fetch(db, email: email) { return existing.id }
    let user = UserRecord(
      id: id, email: email, passwordHash: passwordHash, createdAt: Timestamps.now(),
      userMetadata: try UserMetadata.encode(OpenAPIObjectContainer(unvalidatedValue: metadata)))
    try await user.insert(db)
    try await NewUserHooks(features: features).run(db, user: NewUser(id: id, email: email, metadata: metadata))
    return id
  }
}

/// Every registered feature's new-user hook, in registry order.
struct NewUserHooks {
  let features: [any SandboxFeature.Type]

  func run(_ db: any SQLDatabase, user: NewUser) async throws {
    for feature in features { try await feature.userCreated(user, in: db) }
  }
}

/// Where a feature registers its routes: generated handlers go on ``transport`` (which
/// records each operation's method and path, for 405s and the operator guard), other routes
/// (HTML pages) on ``router``.
package struct SandboxRoutes {
  package let transport: RecordingTransport
  package let state: SandboxState

  /// The public routes' group (fault rules, delay and response cache apply).
  package var router: SandboxRouteGroup { transport.publicRoutes }

  /// `/`: where contract handlers are registered (their documents' paths are absolute).
  package static let root = URL(string: "/")!

  /// How every generated handler encodes JSON: compact (fewer bytes than the runtime's pretty
  /// default; bench/README.md), keys sorted so that answers are stable.
  package static let configuration = OpenAPIRuntime.Configuration(jsonEncodingOptions: [
    .sortedKeys, .withoutEscapingSlashes,
  ])

  /// Lets the sandbox answer GET requests of `path` (any query) from its ``ResponseCache`` while
  /// the database is unchanged. Only for routes whose answer depends on nothing but the request's
  /// URI, its Accept header and the database: no user, no clock, no randomness.
  package func cacheResponses(ofGET path: String) {
    state.responseCache.allow(path: path)
  }

  /// Gives the requests of paths under `prefix` a body limit of their own, instead of the
  /// server's 1 MB (a storage bucket's objects): bigger bodies get `refusal` (a 413) before a
  /// handler runs.
  package func limitBodies(under prefix: String, to bytes: Int, refusal: SandboxAPIError) {
    state.bodyLimits.set(under: prefix, to: bytes, refusal: refusal)
  }

  /// Where a feature's operator endpoints are registered: `/__sandbox/v1/<name>`.
  package static func operatorURL(_ feature: any SandboxFeature.Type) -> URL {
    root.appendingPathComponent(String(OperatorGuardMiddleware.prefix.dropFirst())).appendingPathComponent(feature.name)
  }
}
