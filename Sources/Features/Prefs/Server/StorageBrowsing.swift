import Foundation
import Hummingbird
import OpenAPIRuntime
import PrefsRules
internal import SQLKit
import SandboxKit
import StorageAPI

/// The buckets, listings, moves, copies, bulk deletes and signed URLs of Supabase Storage's API,
/// with the policies of ``StoragePolicy``.
extension StorageHandlers {
  // MARK: Buckets

  /// The sandbox's one bucket, `profile-photos`: private, 5 MB per object, the five image types.
  static let bucket = Schemas.Bucket(
    id: ProfilePhoto.bucket, name: ProfilePhoto.bucket, owner: "", _public: false, _type: "STANDARD",
    file_size_limit: ProfilePhoto.maximumBytes, allowed_mime_types: PhotoType.accepted.map(\.mimeType),
    created_at: Date(timeIntervalSince1970: 1_767_225_600), updated_at: Date(timeIntervalSince1970: 1_767_225_600))

  func listBuckets(_ input: Operations.listBuckets.Input) async throws -> Operations.listBuckets.Output {
    _ = try await requireUser()
    return .ok(.init(body: .json([Self.bucket])))
  }

  func getBucket(_ input: Operations.getBucket.Input) async throws -> Operations.getBucket.Output {
    _ = try await requireUser()
    try StoragePolicy.requireBucket(input.path.bucket)
    return .ok(.init(body: .json(Self.bucket)))
  }

  // MARK: Listing

  /// The prefix `""` lists the folders the user reads that hold objects (entries with a null id);
  /// `owner` or `owner/start` lists that folder's objects whose names begin with `start` and
  /// with `search`.
  func listObjects(_ input: Operations.listObjects.Input) async throws -> Operations.listObjects.Output {
    guard case .json(let request) = input.body else { throw StorageErrors.invalidRequest("The body must be JSON.") }
    let user = try await requireUser()
    try StoragePolicy.requireBucket(input.path.bucket)
    let limit = request.limit ?? 100
    let offset = request.offset ?? 0
    guard (1...1000).contains(limit), offset >= 0 else {
      throw StorageErrors.invalidRequest("limit must be 1 to 1000 and offset 0 or more.")
    }
    let prefix = request.prefix.hasPrefix("/") ? String(request.prefix.dropFirst()) : request.prefix
    let parts = prefix.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
    let bucket = input.path.bucket
    let search = request.search ?? ""
    let entries = try await state.database.read { db -> [Schemas.ListedObject] in
      if parts.first?.isEmpty ?? true {
        var folders: [Schemas.ListedObject] = []
        for owner in try await StoragePolicy.readableOwners(db, user: user) where owner.hasPrefix(search) {
          if try await !PhotoStorageStore.folder(db, bucket: bucket, owner: owner).isEmpty {
            folders.append(.init(name: owner))
          }
        }
        return folders
      }
      let owner = parts[0]
      let start = (parts.count > 1 ? parts[1] : "") + search
      guard try await StoragePolicy.mayRead(db, user: user, owner: owner) else { return [] }
      return try await PhotoStorageStore.folder(db, bucket: bucket, owner: owner)
        .filter { $0.name.hasPrefix(start) }.map(Self.listed)
    }
    let sorted = Self.sort(entries, by: request.sortBy)
    return .ok(.init(body: .json(Array(sorted.dropFirst(offset).prefix(limit)))))
  }

  static func listed(_ object: StoredObject) -> Schemas.ListedObject {
    let created = PrefsJSON.date(object.createdAt)
    let updated = PrefsJSON.date(object.updatedAt) ?? Date(timeIntervalSince1970: 0)
    return .init(
      name: object.name, id: object.id, created_at: created, updated_at: updated, last_accessed_at: updated,
      metadata: .init(
        eTag: StoragePolicy.etag(object), size: object.size, mimetype: object.contentType,
        cacheControl: object.cacheControl, lastModified: updated, contentLength: object.size, httpStatusCode: 200))
  }

  static func sort(_ entries: [Schemas.ListedObject], by sortBy: Schemas.ListRequest.sortByPayload?)
    -> [Schemas.ListedObject]
  {
    let descending = sortBy?.order == .desc
    let sorted = entries.sorted { first, second in
      switch sortBy?.column ?? .name {
      case .name: first.name < second.name
      case .created_at:
        (first.created_at ?? .distantPast, first.name) < (second.created_at ?? .distantPast, second.name)
      case .updated_at, .last_accessed_at:
        (first.updated_at ?? .distantPast, first.name) < (second.updated_at ?? .distantPast, second.name)
      }
    }
    return descending ? sorted.reversed() : sorted
  }

  // MARK: Move, copy, delete many

  func moveObject(_ input: Operations.moveObject.Input) async throws -> Operations.moveObject.Output {
    guard case .json(let request) = input.body else { throw StorageErrors.invalidRequest("The body must be JSON.") }
    _ = try await transfer(request, move: true)
    return .ok(.init(body: .json(.init(message: "Successfully moved"))))
  }

  func copyObject(_ input: Operations.copyObject.Input) async throws -> Operations.copyObject.Output {
    guard case .json(let request) = input.body else { throw StorageErrors.invalidRequest("The body must be JSON.") }
    let copy = try await transfer(request, move: false)
    return .ok(.init(body: .json(.init(Key: copy.key, Id: copy.id))))
  }

  /// Moves or copies within the bucket: the user writes both folders, the source exists, the
  /// destination does not, and the destination's folder stays within its quota.
  func transfer(_ request: Schemas.MoveRequest, move: Bool) async throws -> StoredObject {
    let user = try await requireUser()
    let bucket = request.bucketId
    try StoragePolicy.requireBucket(bucket)
    if let other = request.destinationBucket, other != bucket { try StoragePolicy.requireBucket(other) }
    let source = try StoragePolicy.split(request.sourceKey)
    let destination = try StoragePolicy.split(request.destinationKey)
    try StoragePolicy.requireWriter(user, owner: source.owner)
    try StoragePolicy.requireWriter(user, owner: destination.owner)
    return try await state.database.write { db in
      guard let object = try await PhotoStorageStore.info(db, bucket: bucket, owner: source.owner, name: source.name)
      else { throw StorageErrors.objectNotFound }
      guard
        try await PhotoStorageStore.info(db, bucket: bucket, owner: destination.owner, name: destination.name) == nil
      else { throw StorageErrors.duplicate }
      if !move || destination.owner != source.owner {
        let others = try await PhotoStorageStore.usage(
          db, bucket: bucket, owner: destination.owner, besides: destination.name)
        let limit = PhotoStorageStore.buckets[bucket] ?? 0
        guard others.objects < PhotoStorageStore.objectsPerFolder, others.bytes + object.size <= limit else {
          throw StorageErrors.folderFull
        }
      }
      return try await PhotoStorageStore.copy(db, bucket: bucket, from: source, to: destination, move: move)
    }
  }

  /// Deletes the named objects the user may delete (their own folder's); the rest are left.
  func deleteObjects(_ input: Operations.deleteObjects.Input) async throws -> Operations.deleteObjects.Output {
    guard case .json(let request) = input.body else { throw StorageErrors.invalidRequest("The body must be JSON.") }
    let user = try await requireUser()
    let bucket = input.path.bucket
    try StoragePolicy.requireBucket(bucket)
    guard (1...1000).contains(request.prefixes.count) else {
      throw StorageErrors.invalidRequest("prefixes must name 1 to 1000 objects.")
    }
    let keys = request.prefixes.compactMap { try? StoragePolicy.split($0) }.filter {
      (try? StoragePolicy.requireWriter(user, owner: $0.owner)) != nil
    }
    let deleted = try await state.database.write { db -> [StoredObject] in
      var deleted: [StoredObject] = []
      for key in keys {
        guard let object = try await PhotoStorageStore.info(db, bucket: bucket, owner: key.owner, name: key.name)
        else { continue }
        if try await PhotoStorageStore.delete(db, bucket: bucket, owner: key.owner, name: key.name) {
          deleted.append(object)
        }
      }
      return deleted
    }
    return .ok(.init(body: .json(try deleted.map(Self.info))))
  }

  // MARK: Signed URLs

  func createSignedURL(_ input: Operations.createSignedURL.Input) async throws -> Operations.createSignedURL.Output {
    guard case .json(let request) = input.body else { throw StorageErrors.invalidRequest("The body must be JSON.") }
    let path = input.path
    let seconds: Int? =
      switch request.expiresIn {
      case .case1(let number): number
      case .case2(let text): Int(text)
      }
    guard let seconds, (1...999_999_999).contains(seconds) else {
      throw StorageErrors.invalidRequest("expiresIn must be a whole number of seconds from 1 to 999999999.")
    }
    _ = try await readable(bucket: path.bucket, owner: path.owner, name: path.name)
    let token = try await state.database.write { db in
      try await PhotoStorageStore.sign(
        db, scope: "download", bucket: path.bucket, owner: path.owner, name: path.name, upsert: false,
        expiresAt: Timestamps.unixNow() + seconds)
    }
    return .ok(.init(body: .json(.init(signedURL: Self.signedPath("sign", path.bucket, path.owner, path.name, token)))))
  }

  func createSignedUploadURL(_ input: Operations.createSignedUploadURL.Input) async throws
    -> Operations.createSignedUploadURL.Output
  {
    let path = input.path
    _ = try await requireWriter(bucket: path.bucket, owner: path.owner, name: path.name)
    let upsert = input.headers.x_hyphen_upsert?.lowercased() == "true"
    let token = try await state.database.write { db in
      try await PhotoStorageStore.sign(
        db, scope: "upload", bucket: path.bucket, owner: path.owner, name: path.name, upsert: upsert,
        expiresAt: Timestamps.unixNow() + Self.uploadURLSeconds)
    }
    let url = Self.signedPath("upload/sign", path.bucket, path.owner, path.name, token)
    return .ok(.init(body: .json(.init(url: url, token: token))))
  }

  /// `/object/<route>/<bucket>/<owner>/<name>?token=…`, each segment percent-encoded.
  static func signedPath(_ route: String, _ bucket: String, _ owner: String, _ name: String, _ token: String)
    -> String
  {
    let segments = [bucket, owner, name].map {
      $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? $0
    }
    return "/object/\(route)/\(segments.joined(separator: "/"))?token=\(token)"
  }
}
