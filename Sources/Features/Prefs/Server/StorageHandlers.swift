import Foundation
import Hummingbird
import OpenAPIRuntime
import PrefsRules
internal import SQLKit
import SandboxKit
import StorageAPI

/// Supabase Storage's API (StorageAPI) for the recruiting app's `profile-photos` bucket, as the
/// official clients speak it, with its policies (``StoragePolicy``): the owner (the folder is
/// their user id) writes, a parent never does; the owner and a parent linked to them read;
/// anyone else is told the object does not exist. A folder holds at most 10 objects and 5 MB in
/// all. Bodies over the bucket's 5 MB are refused (by the server's body limit for these paths,
/// before they are read, and here again); a body must be an image of the type it is sent as, of
/// at most 40 megapixels as its header declares. Errors are real Storage's (``StorageErrors``).
/// The listings, copies and signed URLs are in StorageBrowsing.swift.
struct StorageHandlers: StorageAPI.APIProtocol {
  let state: SandboxState

  typealias Schemas = StorageAPI.Components.Schemas

  /// Where the object API lives (every path under it takes bodies up to the bucket's limit).
  static let prefix = "/storage/v1/object/"

  /// How long a signed upload URL works (real Storage's two hours).
  static let uploadURLSeconds = 7200

  // MARK: Uploads

  func uploadObject(_ input: Operations.uploadObject.Input) async throws -> Operations.uploadObject.Output {
    let path = input.path
    let upsert = input.headers.x_hyphen_upsert?.lowercased() == "true"
    _ = try await requireWriter(bucket: path.bucket, owner: path.owner, name: path.name)
    let upload = try await StorageUpload.read(input.body, cacheControlHeader: input.headers.cache_hyphen_control)
    let stored = try await store(bucket: path.bucket, owner: path.owner, name: path.name, upload) { exists in
      if exists && !upsert { throw StorageErrors.duplicate }
    }
    return .ok(.init(body: .json(.init(Key: stored.key, Id: stored.id))))
  }

  func updateObject(_ input: Operations.updateObject.Input) async throws -> Operations.updateObject.Output {
    let path = input.path
    _ = try await requireWriter(bucket: path.bucket, owner: path.owner, name: path.name)
    let upload = try await StorageUpload.read(input.body, cacheControlHeader: input.headers.cache_hyphen_control)
    let stored = try await store(bucket: path.bucket, owner: path.owner, name: path.name, upload) { exists in
      if !exists { throw StorageErrors.objectNotFound }
    }
    return .ok(.init(body: .json(.init(Key: stored.key, Id: stored.id))))
  }

  func uploadToSignedURL(_ input: Operations.uploadToSignedURL.Input) async throws
    -> Operations.uploadToSignedURL.Output
  {
    let path = input.path
    let grant = try await grant(
      input.query.token, scope: "upload", bucket: path.bucket, owner: path.owner, name: path.name)
    let upload = try await StorageUpload.read(input.body, cacheControlHeader: input.headers.cache_hyphen_control)
    let stored = try await store(bucket: path.bucket, owner: path.owner, name: path.name, upload) { exists in
      if exists && grant.upsert == 0 { throw StorageErrors.duplicate }
    }
    return .ok(.init(body: .json(.init(Key: stored.key, Id: stored.id))))
  }

  // MARK: Downloads

  func downloadObject(_ input: Operations.downloadObject.Input) async throws -> Operations.downloadObject.Output {
    let path = input.path
    let (object, data) = try await readable(bucket: path.bucket, owner: path.owner, name: path.name)
    if StoragePolicy.matches(input.headers.if_hyphen_none_hyphen_match, object) {
      return .notModified(.init(headers: .init(ETag: StoragePolicy.etag(object))))
    }
    return .ok(try Self.object(object, data))
  }

  func downloadAuthenticatedObject(_ input: Operations.downloadAuthenticatedObject.Input) async throws
    -> Operations.downloadAuthenticatedObject.Output
  {
    let path = input.path
    let (object, data) = try await readable(bucket: path.bucket, owner: path.owner, name: path.name)
    if StoragePolicy.matches(input.headers.if_hyphen_none_hyphen_match, object) {
      return .notModified(.init(headers: .init(ETag: StoragePolicy.etag(object))))
    }
    return .ok(try Self.object(object, data))
  }

  func downloadSignedObject(_ input: Operations.downloadSignedObject.Input) async throws
    -> Operations.downloadSignedObject.Output
  {
    let path = input.path
    _ = try await grant(input.query.token, scope: "download", bucket: path.bucket, owner: path.owner, name: path.name)
    let found = try await state.database.read { db in
      try await PhotoStorageStore.data(db, bucket: path.bucket, owner: path.owner, name: path.name)
    }
    guard let (object, data) = found else { throw StorageErrors.objectNotFound }
    if StoragePolicy.matches(input.headers.if_hyphen_none_hyphen_match, object) {
      return .notModified(.init(headers: .init(ETag: StoragePolicy.etag(object))))
    }
    return .ok(try Self.object(object, data))
  }

  /// The sandbox's one bucket is private: no public URL serves it.
  func downloadPublicObject(_ input: Operations.downloadPublicObject.Input) async throws
    -> Operations.downloadPublicObject.Output
  {
    throw StorageErrors.bucketNotFound
  }

  /// HEAD answers without a body: 200 with the entity tag, 304, or 400 for anything refused.
  func headObject(_ input: Operations.headObject.Input) async throws -> Operations.headObject.Output {
    let path = input.path
    let object: StoredObject
    do {
      object = try await readable(bucket: path.bucket, owner: path.owner, name: path.name).0
    } catch is SandboxAPIError {
      return .badRequest(.init())
    }
    if StoragePolicy.matches(input.headers.if_hyphen_none_hyphen_match, object) {
      return .notModified(.init(headers: .init(ETag: StoragePolicy.etag(object))))
    }
    return .ok(.init(headers: .init(ETag: StoragePolicy.etag(object))))
  }

  // MARK: Information, delete

  func getObjectInfo(_ input: Operations.getObjectInfo.Input) async throws -> Operations.getObjectInfo.Output {
    let path = input.path
    let user = try await requireUser()
    try StoragePolicy.requireBucket(path.bucket)
    let found = try await state.database.read { db -> StoredObject? in
      guard try await StoragePolicy.mayRead(db, user: user, owner: path.owner) else { return nil }
      return try await PhotoStorageStore.info(db, bucket: path.bucket, owner: path.owner, name: path.name)
    }
    guard let object = found else { throw StorageErrors.objectNotFound }
    return .ok(.init(body: .json(try Self.info(object))))
  }

  func deleteObject(_ input: Operations.deleteObject.Input) async throws -> Operations.deleteObject.Output {
    let path = input.path
    let user = try await requireUser()
    try StoragePolicy.requireBucket(path.bucket)
    try StoragePolicy.requireWriter(user, owner: path.owner)
    let deleted = try await state.database.write { db in
      try await PhotoStorageStore.delete(db, bucket: path.bucket, owner: path.owner, name: path.name)
    }
    guard deleted else { throw StorageErrors.objectNotFound }
    return .ok(.init(body: .json(.init(message: "Successfully deleted"))))
  }

  // MARK: What the operations share

  func requireUser() async throws -> AuthenticatedUser {
    guard CurrentRequest.bearerToken != nil else { throw StorageErrors.noToken }
    return try await state.requireBearerUser(orThrow: StorageErrors.invalidToken)
  }

  /// The signed-in user, when they may write the object `name` of the owner's folder of the
  /// bucket (before the body is read).
  func requireWriter(bucket: String, owner: String, name: String) async throws -> AuthenticatedUser {
    let user = try await requireUser()
    try StoragePolicy.requireBucket(bucket)
    try StoragePolicy.requireWriter(user, owner: owner)
    try StoragePolicy.requireName(name)
    return user
  }

  /// The object and its bytes, when the signed-in user may read it.
  func readable(bucket: String, owner: String, name: String) async throws -> (StoredObject, Data) {
    let user = try await requireUser()
    try StoragePolicy.requireBucket(bucket)
    let found = try await state.database.read { db -> (StoredObject, Data)? in
      guard try await StoragePolicy.mayRead(db, user: user, owner: owner) else { return nil }
      return try await PhotoStorageStore.data(db, bucket: bucket, owner: owner, name: name)
    }
    guard let found else { throw StorageErrors.objectNotFound }
    return found
  }

  /// What a signed URL's token grants, when it is this object's, of `scope`, and not expired.
  func grant(_ token: String, scope: String, bucket: String, owner: String, name: String) async throws
    -> PhotoStorageStore.Grant
  {
    let grant = try await state.database.read { db in try await PhotoStorageStore.grant(db, token: token) }
    guard let grant, grant.scope == scope, grant.bucket == bucket, grant.owner == owner, grant.name == name else {
      throw StorageErrors.invalidSignature
    }
    guard grant.expiresAt > Timestamps.unixNow() else { throw StorageErrors.expiredSignature }
    return grant
  }

  /// Checks the upload, then stores it; `check` gets whether the object exists (in the write's
  /// transaction) and throws to refuse. The folder's other objects and this one stay within the
  /// folder's quota.
  func store(
    bucket: String, owner: String, name: String, _ upload: StorageUpload,
    check: @escaping @Sendable (Bool) throws -> Void
  ) async throws -> StoredObject {
    let (type, data) = (upload.type, upload.data)
    guard let limit = PhotoStorageStore.buckets[bucket], data.count <= limit else { throw StorageErrors.tooLarge }
    guard PhotoType.detect(data) == type else { throw StorageErrors.notThatType(type) }
    // A few hundred KB can declare gigapixels: the header is checked, nothing is decoded.
    guard let size = ImageSize.declared(by: data, type: type) else { throw StorageErrors.noSize(type) }
    guard size.pixels <= ProfilePhoto.maximumPixels else { throw StorageErrors.tooManyPixels(size) }
    return try await state.database.write { db in
      try check(try await PhotoStorageStore.info(db, bucket: bucket, owner: owner, name: name) != nil)
      let others = try await PhotoStorageStore.usage(db, bucket: bucket, owner: owner, besides: name)
      guard others.objects < PhotoStorageStore.objectsPerFolder, others.bytes + data.count <= limit else {
        throw StorageErrors.folderFull
      }
      return try await PhotoStorageStore.store(
        db, bucket: bucket, owner: owner, name: name, contentType: type.mimeType, data: data,
        cacheControl: upload.cacheControl, userMetadata: upload.metadata)
    }
  }

  /// The object's bytes as the contract's answer, with its entity tag.
  static func object(_ object: StoredObject, _ data: Data) throws -> Components.Responses.Object {
    guard let type = PhotoType(mimeType: object.contentType) else { throw SandboxAPIError.internalError }
    let body = HTTPBody(data)
    let content: Components.Responses.Object.Body =
      switch type {
      case .jpeg: .jpeg(body)
      case .png: .png(body)
      case .webp: .image_webp(body)
      case .heic: .image_heic(body)
      case .avif: .image_avif(body)
      case .gif, .tiff, .bmp: throw SandboxAPIError.internalError
      }
    return .init(headers: .init(ETag: StoragePolicy.etag(object)), body: content)
  }

  /// Real Storage's object information.
  static func info(_ object: StoredObject) throws -> Schemas.ObjectInfo {
    let created = PrefsJSON.date(object.createdAt) ?? Date(timeIntervalSince1970: 0)
    let updated = PrefsJSON.date(object.updatedAt) ?? Date(timeIntervalSince1970: 0)
    let metadata = try JSONDecoder().decode(OpenAPIObjectContainer.self, from: Data(object.userMetadata.utf8))
    return .init(
      id: object.id, version: object.id, name: object.path, bucket_id: object.bucket, size: object.size,
      content_type: object.contentType, cache_control: object.cacheControl, etag: StoragePolicy.etag(object),
      metadata: metadata, created_at: created, updated_at: updated, last_modified: updated)
  }

  /// A request the generated server could not decode: a body of a type the bucket does not take,
  /// or JSON that is not the operation's.
  @Sendable static func requestError(operationID: String, request: HTTPRequest, status: HTTPResponse.Status)
    -> SandboxAPIError
  {
    switch operationID {
    case "uploadObject", "updateObject", "uploadToSignedURL":
      if status == .unsupportedMediaType || status == .badRequest,
        let type = request.headerFields[.contentType], !type.lowercased().hasPrefix("multipart/form-data")
      {
        return StorageErrors.unsupportedType(type)
      }
      return StorageErrors.invalidRequest(
        "The body must be an image sent with its Content-Type, or a multipart form with the file part.")
    default:
      return StorageErrors.invalidRequest(
        "The request is not one this operation takes (see the storage contract): \(operationID).")
    }
  }
}
