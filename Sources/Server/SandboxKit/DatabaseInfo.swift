import Foundation
internal import SQLKit

/// What `deck doctor` reports about a sandbox database: read without opening it for writing,
/// so looking never creates, migrates or seeds it.
public enum SandboxDatabaseFile {
  public struct Summary: Sendable, Equatable {
    /// Bytes on disk: the database file plus its write-ahead log.
    public var size: Int64
    /// Migrations recorded in the file, in the order this build knows them, then unknown ones.
    public var applied: [String]
    /// Migrations this build of the sandbox knows, in order.
    public var known: [String]
  }

  /// The summary of the database at `path`, or nil when there is no file there.
  package static func inspect(path: String, features: [any SandboxFeature.Type]) async throws -> Summary? {
    guard let size = fileSize(path) else { return nil }
    let connection = try SQLiteConnection.open(path: path, readOnly: true)
    defer { connection.close() }
    let db = connection.sql()
    try await db.execute("PRAGMA busy_timeout = 2000")
    let recorded = try await SchemaMigrations.applied(db)
    let known = SchemaMigrations.all(features).identifiers
    let applied = known.filter(recorded.contains) + recorded.subtracting(known).sorted()
    return Summary(size: size + (fileSize(path + "-wal") ?? 0), applied: applied, known: known)
  }

  private static func fileSize(_ path: String) -> Int64? {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    return Int64(info.st_size)
  }
}
