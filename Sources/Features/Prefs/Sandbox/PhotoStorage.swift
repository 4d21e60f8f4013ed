import Foundation
import GRDB
import PrefsRules
import SandboxKit

/// Supabase Storage's tables, for the one bucket the recruiting app uses (`profile-photos`):
/// `storage_objects` holds each object's bytes (a BLOB) with its content type and times.
enum PhotoStorageSchema {
  static func register(in migrator: inout DatabaseMigrator) {
    migrator.registerMigration("v1-prefs-storage") { db in
      try db.execute(
        sql: """
          CREATE TABLE storage_objects (
            bucket_id TEXT NOT NULL,
            owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            id TEXT NOT NULL,
            content_type TEXT NOT NULL,
            size INTEGER NOT NULL,
            data BLOB NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (bucket_id, owner_id, name)
          );
          """)
    }
  }
}

/// One stored object, without its bytes.
struct StoredObject: Sendable, Equatable {
  var bucket: String
  var owner: String
  var name: String
  var id: String
  var contentType: String
  var size: Int
  var createdAt: String
  var updatedAt: String

  var key: String { "\(bucket)/\(owner)/\(name)" }
}

/// Reads and writes of `storage_objects`, inside the caller's transaction.
enum PhotoStorageStore {
  /// The buckets the sandbox has, and the largest object each takes.
  static let buckets: [String: Int] = [ProfilePhoto.bucket: ProfilePhoto.maximumBytes]

  static func info(_ db: Database, bucket: String, owner: String, name: String) throws -> StoredObject? {
    try Row.fetchOne(
      db,
      sql: """
        SELECT bucket_id, owner_id, name, id, content_type, size, created_at, updated_at FROM storage_objects
        WHERE bucket_id = ? AND owner_id = ? AND name = ?
        """,
      arguments: [bucket, owner, name]
    ).map(object)
  }

  static func data(_ db: Database, bucket: String, owner: String, name: String) throws -> (StoredObject, Data)? {
    guard
      let row = try Row.fetchOne(
        db, sql: "SELECT * FROM storage_objects WHERE bucket_id = ? AND owner_id = ? AND name = ?",
        arguments: [bucket, owner, name])
    else { return nil }
    let data: Data = row["data"]
    return (object(row), data)
  }

  /// Stores the bytes as the object (a new id each time); `created_at` is kept when it existed.
  @discardableResult
  static func store(_ db: Database, bucket: String, owner: String, name: String, contentType: String, data: Data)
    throws -> StoredObject
  {
    let now = Timestamps.now()
    try db.execute(
      sql: """
        INSERT INTO storage_objects (bucket_id, owner_id, name, id, content_type, size, data, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (bucket_id, owner_id, name) DO UPDATE SET id = excluded.id,
          content_type = excluded.content_type, size = excluded.size, data = excluded.data,
          updated_at = excluded.updated_at
        """,
      arguments: [
        bucket, owner, name, UUID().uuidString.lowercased(), contentType, data.count, data, now, now,
      ])
    guard let stored = try info(db, bucket: bucket, owner: owner, name: name) else {
      throw SandboxAPIError.internalError
    }
    return stored
  }

  /// Deletes the object; false when there was none.
  static func delete(_ db: Database, bucket: String, owner: String, name: String) throws -> Bool {
    try db.execute(
      sql: "DELETE FROM storage_objects WHERE bucket_id = ? AND owner_id = ? AND name = ?",
      arguments: [bucket, owner, name])
    return db.changesCount > 0
  }

  static func count(_ db: Database) throws -> Int {
    try Int.fetchOne(db, sql: "SELECT count(*) FROM storage_objects") ?? 0
  }

  private static func object(_ row: Row) -> StoredObject {
    StoredObject(
      bucket: row["bucket_id"], owner: row["owner_id"], name: row["name"], id: row["id"],
      contentType: row["content_type"], size: row["size"], createdAt: row["created_at"],
      updatedAt: row["updated_at"])
  }
}
