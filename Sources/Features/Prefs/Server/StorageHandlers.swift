import Foundation
import Hummingbird
import OpenAPIRuntime
import PrefsRules
internal import SQLKit
import SandboxKit
import StorageAPI

/// Supabase Storage's object API (StorageAPI) for the recruiting app's `profile-photos` bucket,
/// with its policies: the owner (the folder is their user id) writes, a parent never does (403);
/// the owner and a parent linked to them read; anyone else gets 404. A folder holds one object,
/// the avatar (a write of any other name is 400), so a user stores at most 5 MB. Bodies over
/// the bucket's 5 MB are refused with 413 (by the server's body limit for these paths, before
/// they are read, and here again); a body must be an image of the type it is sent as, of at
/// most 40 megapixels as its header declares (400).
struct StorageHandlers: StorageAPI.APIProtocol {
  let state: SandboxState

  typealias Schemas = StorageAPI.Components.Schemas

  /// Where the object API lives (every path under it takes bodies up to the bucket's limit).
  static let prefix = "/storage/v1/object/"

  // MARK: Upload

  func uploadObject(_ input: Operations.uploadObject.Input) async throws -> Operations.uploadObject.Output {
    let path = input.path
    let upsert = input.headers.x_hyphen_upsert?.lowercased() == "true"
    _ = try await requireWriter(bucket: path.bucket, owner: path.owner, name: path.name)
    let (type, data) = try await Self.image(input.body)
    let stored = try await store(bucket: path.bucket, owner: path.owner, name: path.name, type: type, data: data) {
      exists in
      if exists && !upsert { throw StorageErrors.duplicate }
    }
    return .ok(.init(body: .json(.init(Key: stored.key, Id: stored.id))))
  }

  func updateObject(_ input: Operations.updateObject.Input) async throws -> Operations.updateObject.Output {
    let path = input.path
    _ = try await requireWriter(bucket: path.bucket, owner: path.owner, name: path.name)
    let (type, data) = try await Self.image(input.body)
    let stored = try await store(bucket: path.bucket, owner: path.owner, name: path.name, type: type, data: data) {
      exists in
      if !exists { throw StorageErrors.objectNotFound }
    }
    return .ok(.init(body: .json(.init(Key: stored.key, Id: stored.id))))
  }

  // MARK: Download, information, delete

  func downloadObject(_ input: Operations.downloadObject.Input) async throws -> Operations.downloadObject.Output {
    let path = input.path
    let user = try await state.requireBearerUser(orThrow: StorageErrors.unauthorized)
    try Self.requireBucket(path.bucket)
    let found = try await state.database.read { db -> (StoredObject, Data)? in
      guard try await Self.mayRead(db, user: user, owner: path.owner) else { return nil }
      return try await PhotoStorageStore.data(db, bucket: path.bucket, owner: path.owner, name: path.name)
    }
    guard let (object, data) = found, let type = PhotoType(mimeType: object.contentType) else {
      throw StorageErrors.objectNotFound
    }
    let body = HTTPBody(data)
    let content: Operations.downloadObject.Output.Ok.Body =
      switch type {
      case .jpeg: .jpeg(body)
      case .png: .png(body)
      case .webp: .image_webp(body)
      case .heic: .image_heic(body)
      case .avif: .image_avif(body)
      case .gif, .tiff, .bmp: throw SandboxAPIError.internalError
      }
    return .ok(.init(headers: .init(ETag: Self.etag(object)), body: content))
  }

  func getObjectInfo(_ input: Operations.getObjectInfo.Input) async throws -> Operations.getObjectInfo.Output {
    let path = input.path
    let user = try await state.requireBearerUser(orThrow: StorageErrors.unauthorized)
    try Self.requireBucket(path.bucket)
    let found = try await state.database.read { db -> StoredObject? in
      guard try await Self.mayRead(db, user: user, owner: path.owner) else { return nil }
      return try await PhotoStorageStore.info(db, bucket: path.bucket, owner: path.owner, name: path.name)
    }
    guard let object = found else { throw StorageErrors.objectNotFound }
    return .ok(
      .init(
        body: .json(
          .init(
            id: object.id, name: "\(object.owner)/\(object.name)", bucket_id: object.bucket, size: object.size,
            content_type: object.contentType, etag: Self.etag(object),
            created_at: PrefsJSON.date(object.createdAt) ?? Date(timeIntervalSince1970: 0),
            last_modified: PrefsJSON.date(object.updatedAt) ?? Date(timeIntervalSince1970: 0)))))
  }

  func deleteObject(_ input: Operations.deleteObject.Input) async throws -> Operations.deleteObject.Output {
    let path = input.path
    let user = try await state.requireBearerUser(orThrow: StorageErrors.unauthorized)
    try Self.requireBucket(path.bucket)
    try Self.requireWriter(user, owner: path.owner)
    let deleted = try await state.database.write { db in
      try await PhotoStorageStore.delete(db, bucket: path.bucket, owner: path.owner, name: path.name)
    }
    guard deleted else { throw StorageErrors.objectNotFound }
    return .ok(.init(body: .json(.init(message: "Successfully deleted"))))
  }

  // MARK: The policies

  /// The signed-in user, when they may write the object `name` of the owner's folder of the
  /// bucket (before the body is read): 401, 404 for another bucket, 403 for a parent or another
  /// user's folder, 400 for any object but the avatar (a user's folder holds that one object,
  /// so no user stores more than the bucket's 5 MB).
  func requireWriter(bucket: String, owner: String, name: String) async throws -> AuthenticatedUser {
    let user = try await state.requireBearerUser(orThrow: StorageErrors.unauthorized)
    try Self.requireBucket(bucket)
    try Self.requireWriter(user, owner: owner)
    guard name == ProfilePhoto.objectName else { throw StorageErrors.notTheAvatar }
    return user
  }

  /// Checks what a writer of the folder (``requireWriter(bucket:owner:)``) sends, then stores it;
  /// `check` gets whether the object exists (in the write's transaction) and throws to refuse.
  func store(
    bucket: String, owner: String, name: String, type: PhotoType, data: Data,
    check: @escaping @Sendable (Bool) throws -> Void
  ) async throws -> StoredObject {
    guard let limit = PhotoStorageStore.buckets[bucket], data.count <= limit else { throw StorageErrors.tooLarge }
    guard PhotoType.detect(data) == type else { throw StorageErrors.notThatType(type) }
    // A few hundred KB can declare gigapixels: the header is checked, nothing is decoded.
    guard let size = ImageSize.declared(by: data, type: type) else { throw StorageErrors.noSize(type) }
    guard size.pixels <= ProfilePhoto.maximumPixels else { throw StorageErrors.tooManyPixels(size) }
    return try await state.database.write { db in
      try check(try await PhotoStorageStore.info(db, bucket: bucket, owner: owner, name: name) != nil)
      return try await PhotoStorageStore.store(
        db, bucket: bucket, owner: owner, name: name, contentType: type.mimeType, data: data)
    }
  }

  static func requireBucket(_ bucket: String) throws {
    guard PhotoStorageStore.buckets[bucket] != nil else { throw StorageErrors.bucketNotFound }
  }

  /// Only the owner writes their folder, and never a parent (parents read the player details).
  static func requireWriter(_ user: AuthenticatedUser, owner: String) throws {
    if PrefsAccess.isParent(user) { throw StorageErrors.parentReadOnly }
    guard user.id == owner else { throw StorageErrors.notOwner }
  }

  /// The owner reads their folder, and so does a parent linked to them.
  static func mayRead(_ db: any SQLDatabase, user: AuthenticatedUser, owner: String) async throws -> Bool {
    if user.id == owner { return true }
    guard PrefsAccess.isParent(user) else { return false }
    return try await db.fetchOne(
      "SELECT 1 FROM family_links WHERE parent_id = ? AND athlete_id = ? LIMIT 1", [user.id, owner]) != nil
  }

  static func etag(_ object: StoredObject) -> String { "\"\(object.id)\"" }

  /// The body's declared type and its bytes, up to the largest bucket's limit (413 beyond).
  static func image(_ body: Operations.uploadObject.Input.Body) async throws -> (PhotoType, Data) {
    switch body {
    case .jpeg(let bytes): (.jpeg, try await collect(bytes))
    case .png(let bytes): (.png, try await collect(bytes))
    case .image_webp(let bytes): (.webp, try await collect(bytes))
    case .image_heic(let bytes): (.heic, try await collect(bytes))
    case .image_avif(let bytes): (.avif, try await collect(bytes))
    }
  }

  static func image(_ body: Operations.updateObject.Input.Body) async throws -> (PhotoType, Data) {
    switch body {
    case .jpeg(let bytes): (.jpeg, try await collect(bytes))
    case .png(let bytes): (.png, try await collect(bytes))
    case .image_webp(let bytes): (.webp, try await collect(bytes))
    case .image_heic(let bytes): (.heic, try await collect(bytes))
    case .image_avif(let bytes): (.avif, try await collect(bytes))
    }
  }

  static func collect(_ body: HTTPBody) async throws -> Data {
    // The server's body limit for these paths has refused bigger bodies already; collecting
    // fails only past the limit (a body without a declared length).
    do {
      return try await Data(collecting: body, upTo: ProfilePhoto.maximumBytes)
    } catch {
      throw StorageErrors.tooLarge
    }
  }

  /// A request the generated server could not decode: a body of a type the bucket does not take.
  @Sendable static func requestError(operationID: String, request: HTTPRequest, status: HTTPResponse.Status)
    -> SandboxAPIError
  {
    let types = PhotoType.accepted.map(\.mimeType).joined(separator: ", ")
    return StorageErrors.error(
      .badRequest, "invalid_mime_type", "The body must be an image sent with its Content-Type: one of \(types).")
  }
}

/// Supabase Storage's error bodies: `{"statusCode": "404", "error": "not_found", "message": …}`.
enum StorageErrors {
  static let unauthorized = error(.unauthorized, "Unauthorized", "a valid access token is required")
  static let bucketNotFound = error(.notFound, "Bucket not found", "Bucket not found")
  static let objectNotFound = error(.notFound, "not_found", "Object not found")
  static let duplicate = error(.conflict, "Duplicate", "The resource already exists")
  static let parentReadOnly = error(
    .forbidden, "Unauthorized", "Parents can see the profile photo but not change it; the athlete changes it.")
  static let notOwner = error(.forbidden, "Unauthorized", "Only the owner of this folder may change its objects.")
  static let tooLarge = error(
    .contentTooLarge, "Payload too large",
    "The object exceeded the maximum allowed size (5 MB, \(ProfilePhoto.maximumBytes) bytes).")

  static let notTheAvatar = error(
    .badRequest, "InvalidKey",
    "A folder of the \(ProfilePhoto.bucket) bucket holds one object, named \(ProfilePhoto.objectName): upload the profile photo as <user id>/\(ProfilePhoto.objectName)."
  )

  static func noSize(_ type: PhotoType) -> SandboxAPIError {
    error(.badRequest, "invalid_image", "The \(type.displayName) image's header does not say its size.")
  }

  static func tooManyPixels(_ size: ImageSize) -> SandboxAPIError {
    error(
      .badRequest, "invalid_image",
      "The image declares \(size.width)×\(size.height) pixels (\(size.megapixelsText) megapixels); the bucket takes at most \(ProfilePhoto.maximumPixels / 1_000_000) megapixels."
    )
  }

  static func notThatType(_ type: PhotoType) -> SandboxAPIError {
    error(.badRequest, "invalid_mime_type", "The body is not a \(type.displayName) image (\(type.mimeType)).")
  }

  static func error(_ status: HTTPResponse.Status, _ error: String, _ message: String) -> SandboxAPIError {
    SandboxAPIError(
      status: status,
      json: ["statusCode": .string(String(status.code)), "error": .string(error), "message": .string(message)])
  }
}
