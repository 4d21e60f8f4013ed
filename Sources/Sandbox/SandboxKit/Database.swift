import Foundation
import GRDB

/// The sandbox's SQLite database: opening, configuration and schema migrations.
///
/// The core's tables come first (`meta`, the auth tables); each feature then appends its own
/// (``SandboxFeature/registerMigrations(in:)``; append only: never edit a migration that has shipped).
package enum SandboxDatabase {
  /// Opens (creating if needed) the database at `path` and brings its schema up to date.
  package static func open(path: String, features: [any SandboxFeature.Type]) throws -> DatabasePool {
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent().path
    let fileManager = FileManager.default
    if !fileManager.fileExists(atPath: directory) {
      try fileManager.createDirectory(
        atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }
    // Private from the start (SQLite gives the -wal and -shm files the same mode). O_EXCL: never
    // truncate a file another deck process has just created.
    let descriptor = Foundation.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    if descriptor >= 0 { close(descriptor) }

    var configuration = Configuration()
    configuration.busyMode = .timeout(5)
    configuration.label = "deck-sandbox"
    configuration.maximumReaderCount = 4
    let pool = try DatabasePool(path: path, configuration: configuration)
    try migrate(pool, features: features)
    return pool
  }

  /// Applies pending migrations. Cheap when the schema is current (one read).
  static func migrate(_ pool: DatabasePool, features: [any SandboxFeature.Type]) throws {
    let migrator = self.migrator(features)
    if try pool.read({ try migrator.hasCompletedMigrations($0) }) { return }
    // Several deck processes may open a fresh file at once: the loser of a race fails on
    // "table already exists" and simply retries, finding the migration applied.
    var attempt = 0
    while true {
      do {
        try migrator.migrate(pool)
        return
      } catch let error as DatabaseError where attempt < 3 {
        attempt += 1
        if try pool.read({ try migrator.hasCompletedMigrations($0) }) { return }
        if attempt == 3 { throw error }
      }
    }
  }

  /// All schema migrations, in order: the core's, then each feature's.
  package static func migrator(_ features: [any SandboxFeature.Type]) -> DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1-meta") { db in
      try db.execute(
        sql: """
          CREATE TABLE meta (
            key TEXT PRIMARY KEY NOT NULL,
            value TEXT NOT NULL
          )
          """)
    }
    migrator.registerMigration("v1-auth") { db in
      try db.execute(
        sql: """
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
    }
    AuthSchema.register(in: &migrator)
    // Each feature's tables, in registry order.
    for feature in features { feature.registerMigrations(in: &migrator) }
    return migrator
  }

  /// Deletes every row of every table (including tables added by later migrations), keeping
  /// the schema. Runs inside the caller's transaction.
  static func deleteAllData(_ db: Database) throws {
    let tables = try Row.fetchAll(
      db,
      sql: """
        SELECT name, type FROM pragma_table_list
        WHERE schema = 'main' AND type IN ('table', 'virtual')
          AND name NOT LIKE 'sqlite_%' AND name <> 'grdb_migrations'
        """)
    try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
    for table in tables {
      let name: String = table["name"]
      if table["type"] == "virtual" {
        // Deleting from an FTS table leaves tombstones behind: recreating it is faster and
        // gives the space back.
        guard
          let sql = try String.fetchOne(
            db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [name])
        else { continue }
        try db.execute(sql: "DROP TABLE \(name.quotedDatabaseIdentifier)")
        try db.execute(sql: sql)
      } else {
        try db.execute(sql: "DELETE FROM \(name.quotedDatabaseIdentifier)")
      }
    }
  }
}
