import Foundation
import PrefsRules
internal import SQLKit
import SandboxKit

/// Supabase Storage's tables, for the one bucket the recruiting app uses (`profile-photos`):
/// `storage_objects` holds each object's bytes (a BLOB) with its content type, cache control,
/// user metadata (JSON text) and times; `storage_signed_urls` the tokens of signed download and
/// upload URLs (`scope` `download` or `upload`), each for one object until `expires_at` (unix
/// seconds).
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
    migrations.add(
      "v2-prefs-storage-clients",
      script: """
        ALTER TABLE storage_objects ADD COLUMN cache_control TEXT NOT NULL DEFAULT 'no-cache';
        ALTER TABLE storage_objects ADD COLUMN user_metadata TEXT NOT NULL DEFAULT '{}';
        CREATE TABLE storage_signed_urls (
          token TEXT PRIMARY KEY,
          scope TEXT NOT NULL,
          bucket_id TEXT NOT NULL,
          owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          name TEXT NOT NULL,
          upsert INTEGER NOT NULL,
          expires_at INTEGER NOT NULL
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
  var cacheControl: String
  /// The user metadata sent with the upload, a JSON object's text.
  var userMetadata: String
  var createdAt: String
  var updatedAt: String

  var key: String { "\(bucket)/\(owner)/\(name)" }
  /// Its name in the bucket, `owner/name`.
  var path: String { "\(owner)/\(name)" }

  /// Its columns' names, in camel case (``SQLRow/decode(_:)``).
  private enum CodingKeys: String, CodingKey {
    case name, id, contentType, size, cacheControl, userMetadata, createdAt, updatedAt
    case bucket = "bucketId"
    case owner = "ownerId"
  }
}

/// Reads and writes of `storage_objects` and `storage_signed_urls`, inside the caller's transaction.
enum PhotoStorageStore {
  /// The buckets the sandbox has, and the largest object each takes.
  static let buckets: [String: Int] = [ProfilePhoto.bucket: ProfilePhoto.maximumBytes]

  /// The most objects a folder holds (its bytes are capped by the bucket's limit, in all).
  static let objectsPerFolder = 10

  /// The columns of ``StoredObject``.
  static let columns =
    "bucket_id, owner_id, name, id, content_type, size, cache_control, user_metadata, created_at, updated_at"

  static func info(_ db: any SQLDatabase, bucket: String, owner: String, name: String) async throws
    -> StoredObject?
  {
    try await db.fetchOne(
      StoredObject.self,
      "SELECT \(columns) FROM storage_objects WHERE bucket_id = ? AND owner_id = ? AND name = ?",
      [bucket, owner, name])
  }

  /// The folder's objects, by name.
  static func folder(_ db: any SQLDatabase, bucket: String, owner: String) async throws -> [StoredObject] {
    try await db.fetchAll(
      StoredObject.self,
      "SELECT \(columns) FROM storage_objects WHERE bucket_id = ? AND owner_id = ? ORDER BY name",
      [bucket, owner])
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

  /// What the folder holds besides the object `name`: how many objects, and their bytes.
  static func usage(_ db: any SQLDatabase, bucket: String, owner: String, besides name: String) async throws
    -> (objects: Int, bytes: Int)
  {
    let others = try await folder(db, bucket: bucket, owner: owner).filter { $0.name != name }
    return (others.count, others.reduce(0) { $0 + $1.size })
  }

  /// Stores the bytes as the object (a new id each time); `created_at` is kept when it existed.
  /// The bytes bind as `Data`, which SQLite stores as a BLOB.
  @discardableResult
  static func store(
    _ db: any SQLDatabase, bucket: String, owner: String, name: String, contentType: String, data: Data,
    cacheControl: String, userMetadata: String
  ) async throws -> StoredObject {
    let now = Timestamps.now()
    try await db.execute(
      """
      INSERT INTO storage_objects (bucket_id, owner_id, name, id, content_type, size, data, cache_control,
        user_metadata, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (bucket_id, owner_id, name) DO UPDATE SET id = excluded.id,
        content_type = excluded.content_type, size = excluded.size, data = excluded.data,
        cache_control = excluded.cache_control, user_metadata = excluded.user_metadata,
        updated_at = excluded.updated_at
      """,
      [
        bucket, owner, name, UUID().uuidString.lowercased(), contentType, data.count, data, cacheControl,
        userMetadata, now, now,
      ])
    guard let stored = try await info(db, bucket: bucket, owner: owner, name: name) else {
      throw SandboxAPIError.internalError
    }
    return stored
  }

  /// Copies the object to another key of the bucket (a new id and times); moving renames it
  /// (its id, bytes and times stay).
  static func copy(
    _ db: any SQLDatabase, bucket: String, from source: (owner: String, name: String),
    to destination: (owner: String, name: String), move: Bool
  ) async throws -> StoredObject {
    if move {
      try await db.execute(
        "UPDATE storage_objects SET owner_id = ?, name = ? WHERE bucket_id = ? AND owner_id = ? AND name = ?",
        [destination.owner, destination.name, bucket, source.owner, source.name])
    } else {
      let now = Timestamps.now()
      try await db.execute(
        """
        INSERT INTO storage_objects (bucket_id, owner_id, name, id, content_type, size, data, cache_control,
          user_metadata, created_at, updated_at)
        SELECT bucket_id, ?, ?, ?, content_type, size, data, cache_control, user_metadata, ?, ?
        FROM storage_objects WHERE bucket_id = ? AND owner_id = ? AND name = ?
        """,
        [
          destination.owner, destination.name, UUID().uuidString.lowercased(), now, now, bucket, source.owner,
          source.name,
        ])
    }
    guard let stored = try await info(db, bucket: bucket, owner: destination.owner, name: destination.name) else {
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

  // MARK: Signed URLs

  /// What a signed URL's token grants: one scope (`download` or `upload`) on one object.
  struct Grant: Sendable, Decodable {
    var scope: String
    var bucket: String
    var owner: String
    var name: String
    var upsert: Int
    var expiresAt: Int

    private enum CodingKeys: String, CodingKey {
      case scope, name, upsert, expiresAt
      case bucket = "bucketId"
      case owner = "ownerId"
    }
  }

  /// A new token granting `scope` on the object until `expiresAt` (expired tokens are dropped).
  static func sign(
    _ db: any SQLDatabase, scope: String, bucket: String, owner: String, name: String, upsert: Bool, expiresAt: Int
  ) async throws -> String {
    try await db.execute("DELETE FROM storage_signed_urls WHERE expires_at < ?", [Timestamps.unixNow()])
    let token = (0..<2).map { _ in UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "") }
      .joined()
    try await db.execute(
      """
      INSERT INTO storage_signed_urls (token, scope, bucket_id, owner_id, name, upsert, expires_at)
      VALUES (?, ?, ?, ?, ?, ?, ?)
      """,
      [token, scope, bucket, owner, name, upsert ? 1 : 0, expiresAt])
    return token
  }

  static func grant(_ db: any SQLDatabase, token: String) async throws -> Grant? {
    try await db.fetchOne(
      Grant.self,
      "SELECT scope, bucket_id, owner_id, name, upsert, expires_at FROM storage_signed_urls WHERE token = ?",
      [token])
  }
}
