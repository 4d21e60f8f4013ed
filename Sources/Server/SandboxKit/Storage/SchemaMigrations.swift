package import SQLKit

/// The sandbox's schema, as an ordered list of named migrations: the core's tables first
/// (`meta`, the auth tables), then each feature's (``SandboxFeature/registerMigrations(in:)``).
/// Append only: a migration that has shipped is never edited, and its identifier never changes.
///
/// Applied migrations are recorded by identifier in `grdb_migrations`, the table (and format)
/// of the sandbox's earlier storage layer, so that existing sandbox files open as they are.
package struct SchemaMigrations: Sendable {
  package typealias Step = @Sendable (any SQLDatabase) async throws -> Void

  static let table = "grdb_migrations"
  private var steps: [(identifier: String, run: Step)] = []

  package init() {}

  /// Every identifier, in order.
  package var identifiers: [String] { steps.map(\.identifier) }

  /// Appends a migration that runs a script of statements (see ``SQLScript``), written as
  /// SQLite takes it. PostgreSQL runs ``SQLScript/postgreSQL(_:)`` of it, or `postgres` when
  /// given (what the translation cannot say: SQLite's virtual tables, its own functions).
  package mutating func add(_ identifier: String, script: String, postgres: String? = nil) {
    add(identifier) { db in
      try await db.executeScript(db.isPostgreSQL ? postgres ?? SQLScript.postgreSQL(script) : script)
    }
  }

  /// Appends a migration that runs arbitrary statements.
  package mutating func add(_ identifier: String, _ run: @escaping Step) {
    precondition(!identifiers.contains(identifier), "migration \(identifier) registered twice")
    steps.append((identifier, run))
  }

  /// All schema migrations, in order: the core's, then each feature's.
  package static func all(_ features: [any SandboxFeature.Type]) -> SchemaMigrations {
    var migrations = SchemaMigrations()
    migrations.add(
      "v1-meta",
      script: """
        CREATE TABLE meta (
          key TEXT PRIMARY KEY NOT NULL,
          value TEXT NOT NULL
        )
        """)
    migrations.add(
      "v1-auth",
      script: """
        CREATE TABLE users (
          id TEXT PRIMARY KEY NOT NULL,
          email TEXT NOT NULL UNIQUE COLLATE NOCASE,
          password_hash TEXT NOT NULL,
          created_at TEXT NOT NULL
        );
        CREATE TABLE refresh_tokens (
          token TEXT PRIMARY KEY NOT NULL,
          user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          revoked INTEGER NOT NULL DEFAULT 0,
          created_at TEXT NOT NULL
        );
        CREATE INDEX refresh_tokens_user ON refresh_tokens(user_id);
        """)
    AuthSchema.register(in: &migrations)
    // Each feature's tables, in registry order.
    for feature in features { feature.registerMigrations(in: &migrations) }
    return migrations
  }

  /// The identifiers recorded as applied (none in a new database).
  package static func applied(_ db: any SQLDatabase) async throws -> Set<String> {
    let exists = try await db.fetchValue(
      Int.self,
      db.isPostgreSQL
        ? "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?"
        : "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", [table])
    guard exists == 1 else { return [] }
    return Set(try await db.fetchColumn(String.self, "SELECT identifier FROM \(table)"))
  }

  /// Applies the missing migrations in order; inside the caller's write transaction.
  func apply(_ db: any SQLDatabase) async throws {
    try await db.execute("CREATE TABLE IF NOT EXISTS \(Self.table) (identifier TEXT NOT NULL PRIMARY KEY)")
    let applied = try await Self.applied(db)
    for step in steps where !applied.contains(step.identifier) {
      try await step.run(db)
      try await db.execute("INSERT INTO \(Self.table) (identifier) VALUES (?)", [step.identifier])
    }
  }
}
