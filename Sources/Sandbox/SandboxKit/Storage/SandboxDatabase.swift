import Foundation
import Logging
import NIOCore
import NIOPosix
package import SQLKit
import SQLiteKit

/// The sandbox's database: one SQLite file in WAL mode, reached through SQLKit, so that every
/// store states its queries once, in SQL both engines accept (see docs/ARCHITECTURE.md).
///
/// Writes go through one connection, one transaction at a time (``write(_:)``); reads through
/// a few others, each in a read transaction of its own (``read(_:)``), so a read sees one
/// committed state. Other processes may open the same file: their writes wait on SQLite's lock
/// (a busy timeout), as this process's wait on each other in order.
package final class SandboxDatabase: Sendable {
  package let path: String
  private let writer: ConnectionPool<SQLiteConnection>
  private let readers: ConnectionPool<SQLiteConnection>
  private let all: [SQLiteConnection]

  static let readerCount = 4
  /// How long a statement waits for another process's write lock before failing (milliseconds).
  static let busyTimeout = 5000

  private init(path: String, writer: SQLiteConnection, readers: [SQLiteConnection]) {
    self.path = path
    self.writer = ConnectionPool([writer])
    self.readers = ConnectionPool(readers)
    self.all = [writer] + readers
  }

  /// Opens (creating if needed, private to the user) the database at `path` and brings its
  /// schema up to date.
  package static func open(path: String, features: [any SandboxFeature.Type]) async throws -> SandboxDatabase {
    try createPrivately(path)
    let writer = try await connect(path)
    do {
      // Once per file; later connections find it set.
      try await writer.sql(queryLogLevel: nil).execute("PRAGMA journal_mode = WAL")
      var readers: [SQLiteConnection] = []
      for _ in 0..<readerCount { readers.append(try await connect(path)) }
      let database = SandboxDatabase(path: path, writer: writer, readers: readers)
      try await database.migrate(SchemaMigrations.all(features))
      return database
    } catch {
      try? await writer.close().get()
      throw error
    }
  }

  /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`): committed when it returns, rolled
  /// back when it throws.
  package func write<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
    try await writer.with { connection in
      try await Self.transaction(connection.sql(queryLogLevel: nil), begin: "BEGIN IMMEDIATE", body)
    }
  }

  /// Runs `body` in a read transaction: every statement sees the same committed state.
  package func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
    try await readers.with { connection in
      try await Self.transaction(connection.sql(queryLogLevel: nil), begin: "BEGIN", body)
    }
  }

  /// Runs `body` on the writing connection outside any transaction (VACUUM, checkpoints).
  package func writeWithoutTransaction<T: Sendable>(
    _ body: @Sendable (any SQLDatabase) async throws -> T
  ) async throws -> T {
    try await writer.with { connection in try await body(connection.sql(queryLogLevel: nil)) }
  }

  /// Closes every connection once the work in flight is done.
  package func close() async {
    let writers = await writer.drain(count: 1)
    let readers = await self.readers.drain(count: Self.readerCount)
    for connection in writers + readers { try? await connection.close().get() }
  }

  private static func transaction<T: Sendable>(
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
    var logger = Logger(label: "deck-sandbox.sqlite")
    logger.logLevel = .error
    let connection = try await SQLiteConnection.open(
      storage: .file(path: path), threadPool: .singleton, logger: logger,
      on: MultiThreadedEventLoopGroup.singleton.any()
    ).get()
    let db = connection.sql(queryLogLevel: nil)
    do {
      try await db.execute("PRAGMA busy_timeout = \(busyTimeout)")
      try await db.execute("PRAGMA foreign_keys = ON")
      try await db.execute("PRAGMA synchronous = NORMAL")
    } catch {
      try? await connection.close().get()
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
  /// Applies pending migrations, each once, in order, in one write transaction: the write lock
  /// makes a second process that opens the same fresh file wait, then find them applied.
  /// Cheap when the schema is current (one read).
  func migrate(_ migrations: SchemaMigrations) async throws {
    let applied = try await read { db in try await SchemaMigrations.applied(db) }
    if migrations.identifiers.allSatisfy(applied.contains) { return }
    try await write { db in try await migrations.apply(db) }
  }

  /// Deletes every row of every table (including tables added by later migrations), keeping
  /// the schema. Runs inside the caller's write transaction.
  static func deleteAllData(_ db: any SQLDatabase) async throws {
    let tables = try await db.fetchAll(
      """
      SELECT name, type FROM pragma_table_list
      WHERE schema = 'main' AND type IN ('table', 'virtual')
        AND name NOT LIKE 'sqlite_%' AND name <> ?
      """, [SchemaMigrations.table])
    try await db.execute("PRAGMA defer_foreign_keys = ON")
    for table in tables {
      let name: String = try table["name"]
      let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
      if try table["type"] as String == "virtual" {
        // Deleting from an FTS table leaves tombstones behind: recreating it is faster and
        // gives the space back.
        guard
          let sql = try await db.fetchValue(
            String.self, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [name])
        else { continue }
        try await db.execute("DROP TABLE \(quoted)")
        try await db.execute(sql)
      } else {
        try await db.execute("DELETE FROM \(quoted)")
      }
    }
  }
}
