import Foundation
import PrefsRules
import TestSupport
import Testing

@testable import PrefsServer
@testable import SandboxKit

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Supabase Storage's object API for the profile photo (bucket profile-photos), over HTTP
/// against an embedded server on a temporary database: the policies, the 5 MB limit, upsert.
@Suite("Profile photo storage over HTTP", .serialized)
struct PhotoStorageTests {
  struct Reply {
    var status: Int
    var data: Data
    var headers: [String: String]
    var object: [String: Any] { (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:] }
    var message: String { object["message"] as? String ?? "" }
    /// Real Storage's status: a refusal is HTTP 400 carrying it in the body's `statusCode`.
    var real: Int { status == 400 ? Int(object["statusCode"] as? String ?? "") ?? 400 : status }
  }

  func request(
    _ base: URL, _ method: String, _ path: String, body: Data? = nil, type: String = "image/png",
    bearer: String? = nil, headers: [String: String] = [:]
  ) async throws -> Reply {
    var request = URLRequest(url: try #require(URL(string: base.absoluteString + path)))
    request.httpMethod = method
    if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    if let body {
      request.httpBody = body
      request.setValue(type, forHTTPHeaderField: "Content-Type")
    }
    let (data, response) = try await URLSession.shared.data(for: request)
    let http = response as? HTTPURLResponse
    var fields: [String: String] = [:]
    for (key, value) in http?.allHeaderFields ?? [:] {
      if let key = key as? String, let value = value as? String { fields[key.lowercased()] = value }
    }
    return Reply(status: http?.statusCode ?? 0, data: data, headers: fields)
  }

  func token(_ base: URL, _ email: String) async throws -> String {
    var request = URLRequest(url: try #require(URL(string: base.absoluteString + "/auth/v1/token?grant_type=password")))
    request.httpMethod = "POST"
    request.httpBody = Data(#"{"email":"\#(email)","password":"sandbox"}"#.utf8)
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    let (data, _) = try await URLSession.shared.data(for: request)
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    return try #require(object?["access_token"] as? String, "sign-in of \(email)")
  }

  func withSandbox(_ body: (URL) async throws -> Void) async throws {
    let directory = try ScratchDirectory()
    defer { directory.cleanUp() }
    let sandbox = try await SandboxServer.start(.init(databasePath: directory.path("sandbox.sqlite")))
    do {
      try await body(sandbox.baseURL)
    } catch {
      await sandbox.stop()
      throw error
    }
    await sandbox.stop()
  }

  let athleteID = PrefsServer.seedID(PrefsServer.athleteEmail)
  let parentID = PrefsServer.seedID(PrefsServer.parentEmail)
  var athletePath: String { "/storage/v1/object/profile-photos/\(athleteID)/avatar" }

  @Test("the owner uploads, reads back the same bytes and their information; a second upload needs x-upsert")
  func uploadAndUpsert() async throws {
    try await withSandbox { base in
      let athlete = try await token(base, PrefsServer.athleteEmail)
      let first = PhotoTestImages.png(width: 20, height: 10, seed: 1)
      let anonymous = try await request(base, "POST", athletePath, body: first)
      #expect(anonymous.status == 400 && anonymous.object["error"] as? String == "InvalidJWT", "a token is required")
      let created = try await request(base, "POST", athletePath, body: first, bearer: athlete)
      #expect(created.status == 200, "\(created.object)")
      #expect(created.object["Key"] as? String == "profile-photos/\(athleteID)/avatar")
      let read = try await request(base, "GET", athletePath, bearer: athlete)
      #expect(read.status == 200)
      #expect(read.data == first)
      #expect(read.headers["content-type"] == "image/png")
      let info = try await request(
        base, "GET", "/storage/v1/object/info/profile-photos/\(athleteID)/avatar", bearer: athlete)
      #expect(info.object["size"] as? Int == first.count)
      #expect(info.object["content_type"] as? String == "image/png")

      let second = PhotoTestImages.png(width: 20, height: 10, seed: 2)
      let duplicate = try await request(base, "POST", athletePath, body: second, bearer: athlete)
      #expect(duplicate.real == 409)
      #expect(try await request(base, "GET", athletePath, bearer: athlete).data == first, "not replaced")
      let upserted = try await request(
        base, "POST", athletePath, body: second, bearer: athlete, headers: ["x-upsert": "true"])
      #expect(upserted.status == 200)
      #expect(upserted.object["Id"] as? String != created.object["Id"] as? String, "a new object id")
      #expect(try await request(base, "GET", athletePath, bearer: athlete).data == second)

      let third = PhotoTestImages.png(width: 5, height: 5, seed: 3)
      #expect(try await request(base, "PUT", athletePath, body: third, bearer: athlete).status == 200)
      #expect(try await request(base, "GET", athletePath, bearer: athlete).data == third)
      // A folder holds the avatar only (another name is 400), and PUT only updates.
      let other = "/storage/v1/object/profile-photos/\(athleteID)/other"
      #expect(try await request(base, "PUT", other, body: third, bearer: athlete).status == 400)
      #expect(try await request(base, "DELETE", athletePath, bearer: athlete).status == 200)
      #expect(
        try await request(base, "PUT", athletePath, body: third, bearer: athlete).real == 404, "PUT only updates")
    }
  }

  @Test("over 5 MB is refused with 413 and nothing is stored; exactly 5 MB is taken")
  func limit() async throws {
    try await withSandbox { base in
      let athlete = try await token(base, PrefsServer.athleteEmail)
      let png = PhotoTestImages.png(width: 1400, height: 1300)
      #expect(png.count > ProfilePhoto.maximumBytes)
      let refused = try await request(
        base, "POST", athletePath, body: png, bearer: athlete, headers: ["x-upsert": "true"])
      #expect(refused.status == 400 && refused.real == 413, "real Storage's shape: HTTP 400 carrying 413")
      #expect(refused.message.contains("maximum allowed size"))
      #expect(refused.object["statusCode"] as? String == "413")
      #expect(try await request(base, "GET", athletePath, bearer: athlete).real == 404)
      // A PNG whose bytes are exactly the limit (trailing bytes after IEND are ignored by readers).
      var exact = PhotoTestImages.png(width: 1000, height: 1000)
      exact.append(Data(count: ProfilePhoto.maximumBytes - exact.count))
      let taken = try await request(base, "POST", athletePath, body: exact, bearer: athlete)
      #expect(taken.status == 200, "\(taken.object)")
      #expect(try await request(base, "GET", athletePath, bearer: athlete).data.count == ProfilePhoto.maximumBytes)
    }
  }

  @Test("a parent reads the linked athlete's photo but cannot change it (403); others are told it does not exist")
  func policies() async throws {
    try await withSandbox { base in
      let athlete = try await token(base, PrefsServer.athleteEmail)
      let parent = try await token(base, PrefsServer.parentEmail)
      let photo = PhotoTestImages.png(width: 8, height: 8)
      #expect(try await request(base, "POST", athletePath, body: photo, bearer: athlete).status == 200)

      let read = try await request(base, "GET", athletePath, bearer: parent)
      #expect(read.status == 200)
      #expect(read.data == photo)
      let write = try await request(
        base, "POST", athletePath, body: PhotoTestImages.png(width: 9, height: 9), bearer: parent,
        headers: ["x-upsert": "true"])
      #expect(write.real == 403)
      #expect(write.message.contains("Parents can see the profile photo but not change it"))
      #expect(try await request(base, "PUT", athletePath, body: photo, bearer: parent).real == 403)
      #expect(try await request(base, "DELETE", athletePath, bearer: parent).real == 403)
      let own = "/storage/v1/object/profile-photos/\(parentID)/avatar"
      #expect(try await request(base, "POST", own, body: photo, bearer: parent).real == 403, "not even their own")
      #expect(try await request(base, "GET", athletePath, bearer: athlete).data == photo, "unchanged")

      // The athlete may neither write nor read another user's folder.
      #expect(try await request(base, "POST", own, body: photo, bearer: athlete).real == 403)
      #expect(try await request(base, "GET", own, bearer: athlete).real == 404)
      #expect(
        try await request(base, "GET", "/storage/v1/object/other-bucket/\(athleteID)/avatar", bearer: athlete).real
          == 404)
    }
  }

  @Test("the body must be an image of the type it is sent as")
  func types() async throws {
    try await withSandbox { base in
      let athlete = try await token(base, PrefsServer.athleteEmail)
      let png = PhotoTestImages.png(width: 4, height: 4)
      let mislabelled = try await request(base, "POST", athletePath, body: png, type: "image/jpeg", bearer: athlete)
      #expect(mislabelled.status == 400)
      #expect(mislabelled.message.contains("not a JPEG image"))
      let text = try await request(
        base, "POST", athletePath, body: Data("hello".utf8), type: "text/plain", bearer: athlete)
      #expect(text.status == 400 && text.real == 415, "\(text.object)")
      #expect(try await request(base, "GET", athletePath, bearer: athlete).real == 404)
    }
  }

  @Test("delete removes the photo; deleting again or reading it is 404")
  func delete() async throws {
    try await withSandbox { base in
      let athlete = try await token(base, PrefsServer.athleteEmail)
      #expect(try await request(base, "DELETE", athletePath, bearer: athlete).real == 404)
      let photo = PhotoTestImages.png(width: 3, height: 3)
      #expect(try await request(base, "POST", athletePath, body: photo, bearer: athlete).status == 200)
      let deleted = try await request(base, "DELETE", athletePath, bearer: athlete)
      #expect(deleted.status == 200)
      #expect(deleted.message == "Successfully deleted")
      #expect(try await request(base, "GET", athletePath, bearer: athlete).real == 404)
      #expect(
        try await request(base, "GET", "/storage/v1/object/info/profile-photos/\(athleteID)/avatar", bearer: athlete)
          .real == 404)
      #expect(try await request(base, "DELETE", athletePath, bearer: athlete).real == 404)
    }
  }
}
