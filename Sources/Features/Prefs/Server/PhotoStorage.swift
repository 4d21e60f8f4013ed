import Foundation
import PrefsRules
internal import SQLKit
import SandboxKit

/// Supabase Storage's tables, for the one bucket the recruiting app uses (`profile-photos`):
/// `storage_objects` holds each object's bytes (a BLOB) with its content type and times.
enum PhotoStorageSchema {
  static func register(in migrations: inout SchemaMigrations) {
    migrations.add(
      "v1-prefs-storage",
      script: """
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

/// One stored object, without its bytes.
struct StoredObject: Sendable, Equatable, Decodable {
  var bucket: String
  var owner: String
  var name: String
  var id: String
  var contentType: String
  var size: Int
  var createdAt: String
  var updatedAt: String

  var key: String { "\(bucket)/\(owner)/\(name)" }

  /// Its columns' names, in camel case (``SQLRow/decode(_:)``).
  private enum CodingKeys: String, CodingKey {
    case name, id, contentType, size, createdAt, updatedAt
    case bucket = "bucketId"
    case owner = "ownerId"
  }
}

/// Reads and writes of `storage_objects`, inside the caller's transaction.
enum PhotoStorageStore {
  /// The buckets the sandbox has, and the largest object each takes.
  static let buckets: [String: Int] = [ProfilePhoto.bucket: ProfilePhoto.maximumBytes]

  static func info(_ db: any SQLDatabase, bucket: String, owner: String, name: String) async throws
    -> StoredObject?
  {
    try await db.fetchOne(
      StoredObject.self,
      """
      SELECT bucket_id, owner_id, name, id, content_type, size, created_at, updated_at FROM storage_objects
      WHERE bucket_id = ? AND owner_id = ? AND name = ?
      """,
      [bucket, owner, name])
  }

  /// The object and its bytes (the BLOB decodes as `Data`, the type it was bound as).
  static func data(_ db: any SQLDatabase, bucket: String, owner: String, name: String) async throws
    -> (StoredObject, Data)?
  {
    guard
      let row = try await db.fetchOne(
        "SELECT * FROM storage_objects WHERE bucket_id = ? AND owner_id = ? AND name = ?", [bucket, owner, name])
    else { return nil }
    /// The object's bytes.
    struct Bytes: Decodable { var data: Data }
    return (try row.decode(StoredObject.self), try row.decode(Bytes.self).data)
  }

  /// Stores the bytes as the object (a new id each time); `created_at` is kept when it existed.
  /// The bytes bind as `Data`, which SQLite stores as a BLOB.
  @discardableResult
  static func store(
    _ db: any SQLDatabase, bucket: String, owner: String, name: String, contentType: String, data: Data
  ) async throws -> StoredObject {
    let now = Timestamps.now()
    try await db.execute(
      """
      INSERT INTO storage_objects (bucket_id, owner_id, name, id, content_type, size, data, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (bucket_id, owner_id, name) DO UPDATE SET id = excluded.id,
        content_type = excluded.content_type, size = excluded.size, data = excluded.data,
        updated_at = excluded.updated_at
      """,
      [bucket, owner, name, UUID().uuidString.lowercased(), contentType, data.count, data, now, now])
    guard let stored = try await info(db, bucket: bucket, owner: owner, name: name) else {
      throw SandboxAPIError.internalError
    }
    return stored
  }

  /// Deletes the object; false when there was none.
  static func delete(_ db: any SQLDatabase, bucket: String, owner: String, name: String) async throws -> Bool {
    try await db.fetchOne(
      "DELETE FROM storage_objects WHERE bucket_id = ? AND owner_id = ? AND name = ? RETURNING 1",
      [bucket, owner, name]) != nil
  }

  static func count(_ db: any SQLDatabase) async throws -> Int {
    try await db.fetchValue(Int.self, "SELECT count(*) FROM storage_objects") ?? 0
  }
}
