import Foundation
import Logging
import NIOCore
package import SQLKit
import Synchronization

/// The sandbox's database, on SQLite or PostgreSQL, reached through SQLKit: every store states
/// its queries once, in SQL both engines accept (see docs/ARCHITECTURE.md).
///
/// Both engines give ``write(_:)`` serializable transactions, so a store's check-then-change
/// (a kiosk session's status, an invite, a refresh token) holds across connections, processes
/// and instances:
/// - SQLite: one writing connection, one `BEGIN IMMEDIATE` transaction at a time; other
///   processes on the same file wait on SQLite's lock (a busy timeout). Reads use four other
///   connections, each read in a transaction of its own (WAL: readers never wait for writers).
/// - PostgreSQL: a pool of connections (PostgresNIO); writes run `SERIALIZABLE` and are retried
///   when PostgreSQL reports a serialization failure or a deadlock, reads run `REPEATABLE READ
///   READ ONLY`.
package final class SandboxDatabase: Sendable {
  package let location: DatabaseLocation
  private let engine: Engine
  private let closed = Mutex(false)
  /// SQLite's WAL-index reader, opened at the first look (see ``changeStamp()``).
  private let walIndex = Mutex<DatabaseChangeStamp?>(nil)

  private enum Engine: Sendable {
    case sqlite(writer: ConnectionPool<SQLiteConnection>, readers: ConnectionPool<SQLiteConnection>)
    case postgres(PostgresEngine)
  }

  static let readerCount = 4
  /// How long a statement waits for another process's write lock before failing (milliseconds).
  static let busyTimeout = 5000

  private init(location: DatabaseLocation, engine: Engine) {
    self.location = location
    self.engine = engine
  }

  /// The SQLite file, or nil on PostgreSQL.
  package var path: String? {
    if case .sqlite(let path) = location { path } else { nil }
  }

  /// A mark that changes with every commit to the database, by this process or any other (on
  /// PostgreSQL: any instance, once its notification arrives); nil when it cannot be read, and
  /// then nothing may be kept on its account. Costs no query.
  package func changeStamp() -> DatabaseChangeStamp.Stamp? {
    switch engine {
    case .sqlite:
      guard let path else { return nil }
      let reader = walIndex.withLock { reader in
        if reader == nil { reader = DatabaseChangeStamp(databasePath: path) }
        return reader
      }
      return reader?.current()
    case .postgres(let postgres):
      return postgres.changes.stamp()
    }
  }

  /// Opens (creating if needed, private to the user) the SQLite database at `path` and brings
  /// its schema up to date.
  package static func open(path: String, features: [any SandboxFeature.Type]) async throws -> SandboxDatabase {
    try await open(.sqlite(path: path), features: features)
  }

  /// Opens the database and brings its schema up to date.
  package static func open(_ location: DatabaseLocation, features: [any SandboxFeature.Type]) async throws
    -> SandboxDatabase
  {
    let database: SandboxDatabase
    switch location {
    case .sqlite(let path):
      try createPrivately(path)
      var opened: [SQLiteConnection] = []
      do {
        for _ in 0...readerCount { opened.append(try await connect(path)) }
        // Once per file; later connections find it set.
        try await opened[0].sql().execute("PRAGMA journal_mode = WAL")
      } catch {
        for connection in opened { connection.close() }
        throw error
      }
      database = SandboxDatabase(
        location: location,
        engine: .sqlite(writer: ConnectionPool([opened[0]]), readers: ConnectionPool(Array(opened.dropFirst()))))
    case .postgres(let postgres):
      database = SandboxDatabase(location: location, engine: .postgres(try await PostgresEngine.connect(postgres)))
    }
    do {
      try await database.migrate(SchemaMigrations.all(features))
    } catch {
      await database.close()
      throw error
    }
    return database
  }

  /// Runs `body` in a serializable write transaction: committed when it returns, rolled back
  /// when it throws. On PostgreSQL `body` may run again (a serialization failure), so it must
  /// do nothing but database work.
  package func write<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
    switch engine {
    case .sqlite(let writer, _):
      try await writer.with { connection in
        try await Self.transaction(connection.sql(), begin: "BEGIN IMMEDIATE", body)
      }
    case .postgres(let postgres):
      try await postgres.write(body)
    }
  }

  /// Runs `body` in a read transaction: every statement sees the same committed state.
  package func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
    switch engine {
    case .sqlite(_, let readers):
      try await readers.with { connection in
        try await Self.transaction(connection.sql(), begin: "BEGIN", body)
      }
    case .postgres(let postgres):
      try await postgres.read(body)
    }
  }

  /// Runs `body`, one statement that only reads, outside a transaction: what a read per request
  /// costs on PostgreSQL is then one round trip, not three.
  package func readStatement<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
    switch engine {
    case .sqlite(_, let readers):
      try await readers.with { connection in try await body(connection.sql()) }
    case .postgres(let postgres):
      try await postgres.withConnection(body)
    }
  }

  /// Runs `body` on a connection outside any transaction (VACUUM, checkpoints).
  package func writeWithoutTransaction<T: Sendable>(
    _ body: @Sendable (any SQLDatabase) async throws -> T
  ) async throws -> T {
    switch engine {
    case .sqlite(let writer, _):
      try await writer.with { connection in try await body(connection.sql()) }
    case .postgres(let postgres):
      try await postgres.withConnection(body)
    }
  }

  /// Closes every connection once the work in flight is done.
  package func close() async {
    guard
      !closed.withLock({ closed in
        defer { closed = true }; return closed
      })
    else { return }
    switch engine {
    case .sqlite(let writer, let readers):
      let writers = await writer.close()
      let readers = await readers.close()
      for connection in writers + readers { connection.close() }
    case .postgres(let postgres):
      await postgres.close()
    }
  }

  static func transaction<T: Sendable>(
    _ db: any SQLDatabase, begin: String, _ body: @Sendable (any SQLDatabase) async throws -> T
  ) async throws -> T {
    try await db.execute(begin)
    do {
      let result = try await body(db)
      try await db.execute("COMMIT")
      return result
    } catch {
      try? await db.execute("ROLLBACK")
      throw error
    }
  }

  private static func connect(_ path: String) async throws -> SQLiteConnection {
    let connection = try SQLiteConnection.open(path: path)
    let db = connection.sql()
    do {
      try await db.execute("PRAGMA busy_timeout = \(busyTimeout)")
      try await db.execute("PRAGMA foreign_keys = ON")
      try await db.execute("PRAGMA synchronous = NORMAL")
    } catch {
      connection.close()
      throw error
    }
    return connection
  }

  /// Creates the file (and its directory) readable by the user alone before SQLite opens it
  /// (SQLite gives the -wal and -shm files the same mode). O_EXCL: never truncate a file another
  /// deck process has just created.
  private static func createPrivately(_ path: String) throws {
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    let fileManager = FileManager.default
    if !fileManager.fileExists(atPath: directory) {
      try fileManager.createDirectory(
        atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }
    let descriptor = Foundation.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    if descriptor >= 0 { Foundation.close(descriptor) }
  }
}

extension SandboxDatabase {
  /// Applies pending migrations, each once, in order, in one transaction. Cheap when the schema
  /// is current (one read). SQLite's write lock makes a second process that opens the same
  /// fresh file wait, then find them applied; on PostgreSQL an advisory lock does the same for
  /// instances starting together.
  func migrate(_ migrations: SchemaMigrations) async throws {
    let applied = try await read { db in try await SchemaMigrations.applied(db) }
    if migrations.identifiers.allSatisfy(applied.contains) { return }
    switch engine {
    case .sqlite: try await write { db in try await migrations.apply(db) }
    case .postgres(let postgres): try await postgres.migrate(migrations)
    }
  }

  /// Deletes every row of every table (including tables added by later migrations), keeping
  /// the schema. Runs inside the caller's write transaction.
  static func deleteAllData(_ db: any SQLDatabase) async throws {
    if db.isPostgreSQL {
      let tables = try await db.fetchColumn(
        String.self,
        """
        SELECT table_name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> ?
        ORDER BY table_name
        """, [SchemaMigrations.table])
      guard !tables.isEmpty else { return }
      try await db.execute("TRUNCATE \(tables.map(quoted).joined(separator: ", ")) RESTART IDENTITY")
      return
    }
    /// A table of the database: its name, and whether it is a virtual one.
    struct Table: Decodable {
      var name: String
      var type: String
    }
    let tables = try await db.fetchAll(
      Table.self,
      """
      SELECT name, type FROM pragma_table_list
      WHERE schema = 'main' AND type IN ('table', 'virtual')
        AND name NOT LIKE 'sqlite_%' AND name <> ?
      """, [SchemaMigrations.table])
    try await db.execute("PRAGMA defer_foreign_keys = ON")
    for (name, type) in tables.map({ ($0.name, $0.type) }) {
      if type == "virtual" {
        // Deleting from an FTS table leaves tombstones behind: recreating it is faster and
        // gives the space back.
        guard
          let sql = try await db.fetchValue(
            String.self, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [name])
        else { continue }
        try await db.execute("DROP TABLE \(quoted(name))")
        try await db.execute(sql)
      } else {
        try await db.execute("DELETE FROM \(quoted(name))")
      }
    }
  }

  private static func quoted(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
