import DeckAuth
import DeckConfig
import DeckCore
import DeckSupport
import FoundationEssentials
import HTTPTypes
import OpenAPIRuntime
import PrefsRules
import StorageAPI

/// The profile photo in Supabase Storage (StorageAPI): `profile-photos/<owner's user id>/avatar`.
/// Storage lives on the app's Supabase project, beside its auth API, so the calls go to the
/// `auth` service (a token-bearing one) under `/storage/v1`, with the signed-in user's token.
struct PhotoService: Sendable {
  let context: DeckContext

  typealias Schemas = StorageAPI.Components.Schemas

  /// The most of a photo's download the transport reads: the 5 MB a photo may be, and 1 MB of
  /// headroom (a larger answer fails while it streams in, naming the host and the operation).
  static let downloadLimit = ProfilePhoto.maximumBytes + (1 << 20)

  /// Whose photo: the owner's user id and email.
  struct Owner: Sendable, Equatable {
    var id: String
    var email: String
    /// The signed-in user reads it but may not change it (a parent).
    var readOnly: Bool
  }

  /// A stored photo, without its bytes.
  struct Info: Sendable {
    var size: Int
    var contentType: String
    var updatedAt: Date
  }

  func client() async throws -> StorageAPI.Client {
    try await context.client(.auth, auth: .required) { url, transport, middlewares in
      StorageAPI.Client(
        serverURL: url, transport: transport,
        middlewares: middlewares + [StorageLimitMiddleware(), StorageStatusMiddleware()])
    }
  }

  func path(_ owner: Owner) -> Operations.downloadObject.Input.Path {
    .init(bucket: ProfilePhoto.bucket, owner: owner.id, name: ProfilePhoto.objectName)
  }

  /// The signed-in user's own photo, or for a parent the photo of the athlete they follow (the
  /// owner of the player details the recruiting service shows them).
  func owner() async throws -> Owner {
    let claims = JWTClaims(token: try await context.accessToken())
    if let claims, let id = claims.subject, claims.role != "parent" {
      return Owner(id: id, email: claims.email ?? id, readOnly: false)
    }
    let envelope = try await PrefsService(context: context).client().getPlayerPreferences().ok.body.json
    guard let id = envelope.ownerId else {
      throw DeckError(
        .failure, "The recruiting service did not say whose player details these are (no ownerId).",
        hint: "Is the environment's recruiting URL right? Check with: deck env show")
    }
    return Owner(id: id, email: envelope.owner, readOnly: envelope.readOnly)
  }

  /// Refuses a parent before anything is sent (exit 77); storage would refuse it too (403).
  func requireWritable() async throws -> Owner {
    let claims = JWTClaims(token: try await context.accessToken())
    if let claims, claims.role == "parent" { throw Self.readOnly(email: claims.email) }
    return try await owner()
  }

  static func readOnly(email: String?) -> DeckError {
    DeckError(
      .unauthorized(status: nil),
      "The profile photo is read-only for parents\(email.map { " (signed in as \(TerminalText.sanitize($0)))" } ?? ""); nothing was sent.",
      hint: "The athlete changes it: deck auth login --email ATHLETE_EMAIL --password-stdin")
  }

  /// Stores the photo (replacing one that is there).
  func upload(_ data: Data, type: PhotoType, owner: Owner) async throws {
    let body = HTTPBody(data)
    let content: Components.RequestBodies.Upload
    switch type {
    case .jpeg: content = .jpeg(body)
    case .png: content = .png(body)
    case .webp: content = .image_webp(body)
    case .heic: content = .image_heic(body)
    case .avif: content = .image_avif(body)
    case .gif, .tiff, .bmp: throw PhotoInput.unsupported(type, source: "the photo")
    }
    let path = path(owner)
    _ = try await client().uploadObject(
      path: .init(bucket: path.bucket, owner: path.owner, name: path.name), headers: .init(x_hyphen_upsert: "true"),
      body: content
    ).ok
  }

  /// The photo's bytes; nil when none is set.
  func download(_ owner: Owner) async throws -> Data? {
    do {
      // The transport reads no more of the answer than a photo may be, with headroom for a
      // server's own framing: an endless or huge body stops there.
      return try await ResponseBodyLimit.$bytes.withValue(Self.downloadLimit) {
        let ok = try await client().downloadObject(path: path(owner)).ok
        let body: HTTPBody =
          switch ok.body {
          case .jpeg(let body), .png(let body), .image_webp(let body), .image_heic(let body),
            .image_avif(let body):
            body
          }
        do {
          return try await Data(collecting: body, upTo: ProfilePhoto.maximumBytes)
        } catch {
          throw DeckError(
            .failure,
            "The stored photo is larger than \(ProfilePhoto.sizeText(ProfilePhoto.maximumBytes)); deck did not read it."
          )
        }
      }
    } catch {
      if case .notFound = ErrorPresenter.deckError(for: error).kind { return nil }
      throw error
    }
  }

  /// The photo's size and type; nil when none is set.
  func info(_ owner: Owner) async throws -> Info? {
    do {
      let path = path(owner)
      let info = try await client().getObjectInfo(
        path: .init(bucket: path.bucket, owner: path.owner, name: path.name)
      ).ok.body.json
      return Info(size: info.size, contentType: info.content_type, updatedAt: info.last_modified)
    } catch {
      if case .notFound = ErrorPresenter.deckError(for: error).kind { return nil }
      throw error
    }
  }

  /// Deletes the photo; false when none was set.
  func remove(_ owner: Owner) async throws -> Bool {
    do {
      let path = path(owner)
      _ = try await client().deleteObject(path: .init(bucket: path.bucket, owner: path.owner, name: path.name)).ok
      return true
    } catch {
      if case .notFound = ErrorPresenter.deckError(for: error).kind { return false }
      throw error
    }
  }
}

/// Real Storage answers a refusal with HTTP 400 and the real status as text in the body's
/// `statusCode` (`{"statusCode": "404", "error": "not_found", …}`): the answer goes on with that
/// status, so that "no photo" is a 404 and a refused token a 401 (`InvalidJWT`) to the rest of deck.
struct StorageStatusMiddleware: ClientMiddleware {
  func intercept(
    _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
    next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
  ) async throws -> (HTTPResponse, HTTPBody?) {
    var (response, responseBody) = try await next(request, body, baseURL)
    guard response.status.code == 400 else { return (response, responseBody) }
    var data = Data()
    if let responseBody { data = try await Data(collecting: responseBody, upTo: 64 * 1024) }
    struct Refusal: Decodable {
      var statusCode: String?
      var error: String?
    }
    if let refusal = try? JSONDecoder().decode(Refusal.self, from: data) {
      if refusal.error == "InvalidJWT" {
        response.status = .unauthorized
      } else if let code = refusal.statusCode.flatMap(Int.init), (400...599).contains(code) {
        response.status = .init(code: code)
      }
    }
    return (response, HTTPBody(data))
  }
}

/// A 413 from storage: the photo is over the bucket's limit (deck compresses before sending, so
/// this means the server's limit is lower than the app's 5 MB).
struct StorageLimitMiddleware: ClientMiddleware {
  func intercept(
    _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
    next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
  ) async throws -> (HTTPResponse, HTTPBody?) {
    let (response, responseBody) = try await next(request, body, baseURL)
    guard response.status.code == 413 else { return (response, responseBody) }
    var data = Data()
    if let responseBody { data = (try? await Data(collecting: responseBody, upTo: 64 * 1024)) ?? Data() }
    struct Refusal: Decodable { var message: String? }
    let message = (try? JSONDecoder().decode(Refusal.self, from: data))?.message
    let said = message.map { ": " + TerminalText.sanitize(String($0.prefix(300))) } ?? ""
    throw DeckError(
      .rejected(status: 413), "Storage refused the photo as too large (HTTP 413)\(said).",
      hint:
        "Send a smaller image; deck compresses photos over \(ProfilePhoto.sizeText(ProfilePhoto.maximumBytes)) itself.")
  }
}
