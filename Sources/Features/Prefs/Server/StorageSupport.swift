import Foundation
import Hummingbird
import OpenAPIRuntime
import PrefsRules
internal import SQLKit
import SandboxKit
import StorageAPI

/// Supabase Storage's error bodies, as real Storage sends them: HTTP 400 (500 for the server's
/// own failures) with the real status as text in `statusCode`, beside `code`, `error` and
/// `message` (`{"statusCode": "404", "code": "NoSuchKey", "error": "not_found", …}`).
enum StorageErrors {
  static let noToken = error(
    .badRequest, "InvalidJWT", "InvalidJWT",
    "No access token: send the signed-in user's token as Authorization: Bearer TOKEN.")
  static let invalidToken = error(
    .badRequest, "InvalidJWT", "InvalidJWT", "invalid JWT: the token is invalid, expired or of an ended session")
  static let bucketNotFound = error(.notFound, "NoSuchBucket", "Bucket not found", "Bucket not found")
  static let objectNotFound = error(.notFound, "NoSuchKey", "not_found", "Object not found")
  static let duplicate = error(.conflict, "KeyAlreadyExists", "Duplicate", "The resource already exists")
  static let parentReadOnly = error(
    .forbidden, "AccessDenied", "Unauthorized",
    "Parents can see the profile photo but not change it; the athlete changes it.")
  static let notOwner = error(
    .forbidden, "AccessDenied", "Unauthorized", "Only the owner of this folder may change its objects.")
  static let tooLarge = error(
    .contentTooLarge, "EntityTooLarge", "Payload too large",
    "The object exceeded the maximum allowed size (5 MB, \(ProfilePhoto.maximumBytes) bytes).")
  static let folderFull = error(
    .contentTooLarge, "EntityTooLarge", "Payload too large",
    "The folder exceeded its quota: at most \(PhotoStorageStore.objectsPerFolder) objects and 5 MB (\(ProfilePhoto.maximumBytes) bytes) in all; delete one first."
  )
  static let noFile = error(
    .badRequest, "InvalidRequest", "InvalidRequest", "No content provided: the form has no file part.")
  static let invalidSignature = error(
    .badRequest, "InvalidSignature", "InvalidSignature", "The token is not one of this object's signed URLs.")
  static let expiredSignature = error(
    .badRequest, "ExpiredToken", "ExpiredToken", "The provided token has expired.")

  static func invalidKey(_ key: String) -> SandboxAPIError {
    error(
      .badRequest, "InvalidKey", "InvalidKey",
      "Invalid key: \(key.prefix(200)) (a key is OWNER/NAME: a name of 1 to 200 characters, no control characters, not . or ..)"
    )
  }

  static func invalidRequest(_ message: String) -> SandboxAPIError {
    error(.badRequest, "InvalidRequest", "InvalidRequest", message)
  }

  static func unsupportedType(_ type: String) -> SandboxAPIError {
    let types = PhotoType.accepted.map(\.mimeType).joined(separator: ", ")
    return error(
      .unsupportedMediaType, "InvalidMimeType", "invalid_mime_type",
      "mime type \(type.prefix(100)) is not supported (the bucket takes \(types))")
  }

  static func noSize(_ type: PhotoType) -> SandboxAPIError {
    error(
      .badRequest, "InvalidRequest", "invalid_image", "The \(type.displayName) image's header does not say its size.")
  }

  static func tooManyPixels(_ size: ImageSize) -> SandboxAPIError {
    error(
      .badRequest, "InvalidRequest", "invalid_image",
      "The image declares \(size.width)×\(size.height) pixels (\(size.megapixelsText) megapixels); the bucket takes at most \(ProfilePhoto.maximumPixels / 1_000_000) megapixels."
    )
  }

  static func notThatType(_ type: PhotoType) -> SandboxAPIError {
    error(
      .badRequest, "InvalidMimeType", "invalid_mime_type",
      "The body is not a \(type.displayName) image (\(type.mimeType)).")
  }

  /// Real Storage's shape: HTTP 400 carrying `status` in the body.
  static func error(_ status: HTTPResponse.Status, _ code: String, _ error: String, _ message: String)
    -> SandboxAPIError
  {
    SandboxAPIError(
      status: .badRequest,
      json: [
        "statusCode": .string(String(status.code)), "code": .string(code), "error": .string(error),
        "message": .string(message),
      ])
  }
}

/// An upload's body, read: the image's type and bytes, and what is stored beside them.
struct StorageUpload: Sendable {
  var type: PhotoType
  var data: Data
  var cacheControl: String
  /// The user metadata, a JSON object's text.
  var metadata: String

  /// Reads a raw image body (its cache control from the `cache-control` header) or a multipart
  /// form (the first part that is neither `cacheControl` nor `metadata` is the file, its
  /// Content-Type its type); bodies past the bucket's limit are 413.
  static func read(_ body: Components.RequestBodies.Upload, cacheControlHeader: String?) async throws
    -> StorageUpload
  {
    let header = cacheControlHeader.map { $0.trimmingCharacters(in: .whitespaces) }
    let cacheControl = header.flatMap { $0.isEmpty ? nil : String($0.prefix(200)) } ?? "no-cache"
    switch body {
    case .jpeg(let bytes): return .init(type: .jpeg, data: try await collect(bytes), cacheControl: cacheControl)
    case .png(let bytes): return .init(type: .png, data: try await collect(bytes), cacheControl: cacheControl)
    case .image_webp(let bytes):
      return .init(type: .webp, data: try await collect(bytes), cacheControl: cacheControl)
    case .image_heic(let bytes):
      return .init(type: .heic, data: try await collect(bytes), cacheControl: cacheControl)
    case .image_avif(let bytes):
      return .init(type: .avif, data: try await collect(bytes), cacheControl: cacheControl)
    case .multipartForm(let parts): return try await form(parts)
    }
  }

  init(type: PhotoType, data: Data, cacheControl: String, metadata: String = "{}") {
    self.type = type
    self.data = data
    self.cacheControl = cacheControl
    self.metadata = metadata
  }

  static func form(_ parts: MultipartBody<Components.Schemas.UploadForm>) async throws -> StorageUpload {
    var file: (PhotoType, Data)?
    var cacheControl = "no-cache"
    var metadata = "{}"
    for try await part in parts {
      switch part {
      case .cacheControl(let field):
        let text = try await text(field.payload.body).trimmingCharacters(in: .whitespaces)
        if !text.isEmpty {
          cacheControl = text.allSatisfy(\.isASCIIDigit) ? "max-age=\(text)" : String(text.prefix(200))
        }
      case .metadata(let field):
        let text = try await text(field.payload.body)
        guard (try? JSONSerialization.jsonObject(with: Data(text.utf8))) is [String: Any] else {
          throw StorageErrors.invalidRequest("The form's metadata part must be a JSON object.")
        }
        metadata = text
      case .other(let raw):
        let data = try await collect(raw.body)
        guard file == nil else { continue }
        let declared = raw.headerFields[.contentType] ?? "application/octet-stream"
        let mime = declared.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let mime, let type = PhotoType(mimeType: mime), PhotoType.accepted.contains(type) else {
          throw StorageErrors.unsupportedType(declared)
        }
        file = (type, data)
      }
    }
    guard let (type, data) = file else { throw StorageErrors.noFile }
    return .init(type: type, data: data, cacheControl: cacheControl, metadata: metadata)
  }

  static func text(_ body: HTTPBody) async throws -> String {
    do {
      return String(decoding: try await Data(collecting: body, upTo: 64 * 1024), as: UTF8.self)
    } catch {
      throw StorageErrors.invalidRequest("A form field is over 64 KB.")
    }
  }

  static func collect(_ body: HTTPBody) async throws -> Data {
    // The server's body limit for these paths (5 MB and 64 KB) has refused bigger bodies
    // already: the part is read whole, so that the answer follows a request read to its end,
    // and ``StorageHandlers/store`` refuses one over the bucket's limit.
    do {
      return try await Data(collecting: body, upTo: ProfilePhoto.maximumBytes + 64 * 1024)
    } catch {
      throw StorageErrors.tooLarge
    }
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

/// The storage policies: who reads and who writes a folder, and which names an object may have.
enum StoragePolicy {
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

  /// The folders a user reads: their own, and for a parent their athletes'.
  static func readableOwners(_ db: any SQLDatabase, user: AuthenticatedUser) async throws -> [String] {
    guard PrefsAccess.isParent(user) else { return [user.id] }
    let athletes = try await db.fetchColumn(
      String.self, "SELECT athlete_id FROM family_links WHERE parent_id = ? ORDER BY athlete_id", [user.id])
    return [user.id] + athletes
  }

  /// A name an object may have: 1 to 200 characters, no `/` or control character, not `.` or `..`.
  static func requireName(_ name: String) throws {
    let valid =
      (1...200).contains(name.count) && name != "." && name != ".."
      && !name.unicodeScalars.contains { $0 == "/" || $0.properties.generalCategory == .control }
    guard valid else { throw StorageErrors.invalidKey(name) }
  }

  /// `owner/name` of a key in a bucket.
  static func split(_ key: String) throws -> (owner: String, name: String) {
    let parts = key.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 2, !parts[0].isEmpty else { throw StorageErrors.invalidKey(key) }
    try requireName(parts[1])
    return (parts[0], parts[1])
  }

  static func etag(_ object: StoredObject) -> String { "\"\(object.id)\"" }

  /// Whether an `If-None-Match` header names the object's entity tag (or is `*`).
  static func matches(_ ifNoneMatch: String?, _ object: StoredObject) -> Bool {
    guard let ifNoneMatch else { return false }
    let tag = etag(object)
    return ifNoneMatch.split(separator: ",").contains { candidate in
      var value = candidate.trimmingCharacters(in: .whitespaces)
      if value.hasPrefix("W/") { value.removeFirst(2) }
      return value == tag || value == "*"
    }
  }
}

/// Sends the ETag header as it is: the generated server writes header values percent-encoded
/// (`%22…%22`), and real Storage's clients compare the quoted tag.
struct StorageHeadersMiddleware: ServerMiddleware {
  func intercept(
    _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
    next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
  ) async throws -> (HTTPResponse, HTTPBody?) {
    var (response, responseBody) = try await next(request, body, metadata)
    if let etag = response.headerFields[.eTag], let decoded = etag.removingPercentEncoding {
      response.headerFields[.eTag] = decoded
    }
    return (response, responseBody)
  }
}
