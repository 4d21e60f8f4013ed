import Foundation
import PrefsRules
import TestSupport
import Testing

@testable import PrefsServer
@testable import SandboxKit

/// What the official Storage clients send (storage3, supabase-swift, supabase-js), over HTTP
/// against an embedded server: multipart uploads, the endpoints a photo screen uses, real
/// Storage's answers (object information, entity tags, 304).
extension PhotoStorageTests {
  /// A multipart form as the clients send it: `cacheControl`, optional `metadata`, then the file
  /// part named `name` (storage3 names it `file`, supabase-js leaves it empty).
  func form(_ file: Data, type: String, name: String = "file", cacheControl: String = "3600", metadata: String? = nil)
    -> (Data, String)
  {
    let boundary = "deck-test-boundary-1f3a"
    var body = Data()
    func field(_ name: String, _ value: String) {
      body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8))
    }
    field("cacheControl", cacheControl)
    if let metadata { field("metadata", metadata) }
    body.append(
      Data(
        "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"avatar\"\r\nContent-Type: \(type)\r\n\r\n"
          .utf8))
    body.append(file)
    body.append(Data("\r\n--\(boundary)--\r\n".utf8))
    return (body, "multipart/form-data; boundary=\(boundary)")
  }

  func json(_ value: Any) throws -> Data { try JSONSerialization.data(withJSONObject: value) }

  @Test("a multipart upload (storage3's and supabase-js's) stores the file part with its cache control and metadata")
  func multipartUploads() async throws {
    try await withSandbox { base in
      let athlete = try await token(base, PrefsServer.athleteEmail)
      let first = PhotoTestImages.png(width: 12, height: 6, seed: 4)
      let (body, type) = form(first, type: "image/png", metadata: #"{"camera":"front"}"#)
      let created = try await request(base, "POST", athletePath, body: body, type: type, bearer: athlete)
      #expect(created.status == 200, "\(created.object)")
      #expect(try await request(base, "GET", athletePath, bearer: athlete).data == first)
      let info = try await request(
        base, "GET", "/storage/v1/object/info/profile-photos/\(athleteID)/avatar", bearer: athlete)
      #expect(info.object["cache_control"] as? String == "max-age=3600")
      #expect((info.object["metadata"] as? [String: Any])?["camera"] as? String == "front")
      #expect(info.object["version"] as? String == info.object["id"] as? String)
      #expect(info.object["content_type"] as? String == "image/png")

      // supabase-js's unnamed file part, as an upsert and as an update.
      let second = PhotoTestImages.png(width: 5, height: 5, seed: 5)
      let (unnamed, unnamedType) = form(second, type: "image/png", name: "")
      #expect(
        try await request(base, "POST", athletePath, body: unnamed, type: unnamedType, bearer: athlete).real == 409)
      let upserted = try await request(
        base, "POST", athletePath, body: unnamed, type: unnamedType, bearer: athlete, headers: ["x-upsert": "true"])
      #expect(upserted.status == 200, "\(upserted.object)")
      #expect(try await request(base, "GET", athletePath, bearer: athlete).data == second)
      let (third, thirdType) = form(first, type: "image/png", cacheControl: "60")
      #expect(try await request(base, "PUT", athletePath, body: third, type: thirdType, bearer: athlete).status == 200)
      let updated = try await request(
        base, "GET", "/storage/v1/object/info/profile-photos/\(athleteID)/avatar", bearer: athlete)
      #expect(updated.object["cache_control"] as? String == "max-age=60")

      // The file part's type is the object's: text/plain (storage3's default) is 415, a
      // mislabelled image 400, a form without a file 400.
      let (text, textType) = form(Data("hello".utf8), type: "text/plain;charset=UTF-8")
      let refused = try await request(base, "PUT", athletePath, body: text, type: textType, bearer: athlete)
      #expect(refused.real == 415 && refused.object["error"] as? String == "invalid_mime_type", "\(refused.object)")
      let (mislabelled, mislabelledType) = form(first, type: "image/jpeg")
      #expect(
        try await request(base, "PUT", athletePath, body: mislabelled, type: mislabelledType, bearer: athlete).real
          == 400)
      let empty = Data("--b\r\nContent-Disposition: form-data; name=\"cacheControl\"\r\n\r\n3600\r\n--b--\r\n".utf8)
      let noFile = try await request(
        base, "PUT", athletePath, body: empty, type: "multipart/form-data; boundary=b", bearer: athlete)
      #expect(noFile.real == 400 && noFile.message.contains("no file part"), "\(noFile.object)")
      #expect(try await request(base, "GET", athletePath, bearer: athlete).data == first, "unchanged by refusals")
    }
  }

  @Test("HEAD says whether the object exists; the ETag is quoted, not percent-encoded; If-None-Match gets 304")
  func existsAndEntityTags() async throws {
    try await withSandbox { base in
      let athlete = try await token(base, PrefsServer.athleteEmail)
      #expect(try await request(base, "HEAD", athletePath, bearer: athlete).status == 400, "nothing there")
      let photo = PhotoTestImages.png(width: 8, height: 8)
      #expect(try await request(base, "POST", athletePath, body: photo, bearer: athlete).status == 200)
      let head = try await request(base, "HEAD", athletePath, bearer: athlete)
      #expect(head.status == 200)
      let etag = try #require(head.headers["etag"])
      #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && !etag.contains("%"), "\(etag)")
      let read = try await request(base, "GET", athletePath, bearer: athlete)
      #expect(read.headers["etag"] == etag)
      let cached = try await request(base, "GET", athletePath, bearer: athlete, headers: ["If-None-Match": etag])
      #expect(cached.status == 304)
      #expect(cached.data.isEmpty)
      let stale = try await request(base, "GET", athletePath, bearer: athlete, headers: ["If-None-Match": "\"other\""])
      #expect(stale.status == 200 && stale.data == photo)
      let authenticated = "/storage/v1/object/authenticated/profile-photos/\(athleteID)/avatar"
      #expect(try await request(base, "GET", authenticated, bearer: athlete).data == photo)
      let info = try await request(
        base, "GET", "/storage/v1/object/info/profile-photos/\(athleteID)/avatar", bearer: athlete)
      #expect(info.object["etag"] as? String == etag)
      let publicPath = "/storage/v1/object/public/profile-photos/\(athleteID)/avatar"
      let publicRead = try await request(base, "GET", publicPath)
      #expect(
        publicRead.real == 404 && publicRead.object["error"] as? String == "Bucket not found", "the bucket is private")
    }
  }

  @Test("buckets, listing, move, copy and removing many, with the folder policies")
  func browsing() async throws {
    try await withSandbox { base in
      let athlete = try await token(base, PrefsServer.athleteEmail)
      let parent = try await token(base, PrefsServer.parentEmail)
      let buckets = try await request(base, "GET", "/storage/v1/bucket", bearer: athlete)
      let list = try #require(try JSONSerialization.jsonObject(with: buckets.data) as? [[String: Any]])
      #expect(list.map { $0["id"] as? String } == ["profile-photos"])
      #expect(list.first?["file_size_limit"] as? Int == ProfilePhoto.maximumBytes)
      #expect(try await request(base, "GET", "/storage/v1/bucket/profile-photos", bearer: athlete).status == 200)
      #expect(try await request(base, "GET", "/storage/v1/bucket/other", bearer: athlete).real == 404)

      let photo = PhotoTestImages.png(width: 6, height: 6)
      #expect(try await request(base, "POST", athletePath, body: photo, bearer: athlete).status == 200)
      let move = try json([
        "bucketId": "profile-photos", "sourceKey": "\(athleteID)/avatar", "destinationKey": "\(athleteID)/old",
      ])
      #expect(
        try await request(base, "POST", "/storage/v1/object/move", body: move, type: "application/json", bearer: parent)
          .real == 403)
      #expect(
        try await request(
          base, "POST", "/storage/v1/object/move", body: move, type: "application/json", bearer: athlete
        ).status == 200)
      #expect(try await request(base, "GET", athletePath, bearer: athlete).real == 404, "moved away")
      let copy = try json([
        "bucketId": "profile-photos", "sourceKey": "\(athleteID)/old", "destinationKey": "\(athleteID)/avatar",
      ])
      let copied = try await request(
        base, "POST", "/storage/v1/object/copy", body: copy, type: "application/json", bearer: athlete)
      #expect(copied.object["Key"] as? String == "profile-photos/\(athleteID)/avatar", "\(copied.object)")
      #expect(
        try await request(
          base, "POST", "/storage/v1/object/copy", body: copy, type: "application/json", bearer: athlete
        ).real == 409)

      let listing = try json([
        "prefix": "\(athleteID)/", "limit": 100, "offset": 0, "sortBy": ["column": "name", "order": "desc"],
      ])
      for (user, names) in [(athlete, ["old", "avatar"]), (parent, ["old", "avatar"])] {
        let listed = try await request(
          base, "POST", "/storage/v1/object/list/profile-photos", body: listing, type: "application/json", bearer: user)
        let entries = try #require(try JSONSerialization.jsonObject(with: listed.data) as? [[String: Any]])
        #expect(entries.map { $0["name"] as? String } == names, "\(entries)")
        #expect((entries.first?["metadata"] as? [String: Any])?["size"] as? Int == photo.count)
      }
      let root = try await request(
        base, "POST", "/storage/v1/object/list/profile-photos", body: try json(["prefix": ""]),
        type: "application/json", bearer: parent)
      let folders = try #require(try JSONSerialization.jsonObject(with: root.data) as? [[String: Any]])
      #expect(folders.map { $0["name"] as? String } == [athleteID], "a parent sees their athlete's folder")
      #expect(folders.first?["id"] is NSNull)

      let remove = try json(["prefixes": ["\(athleteID)/old", "\(athleteID)/avatar", "\(parentID)/x"]])
      let byParent = try await request(
        base, "DELETE", "/storage/v1/object/profile-photos", body: remove, type: "application/json", bearer: parent)
      #expect(String(decoding: byParent.data, as: UTF8.self) == "[]", "a parent deletes nothing")
      let removed = try await request(
        base, "DELETE", "/storage/v1/object/profile-photos", body: remove, type: "application/json", bearer: athlete)
      let gone = try #require(try JSONSerialization.jsonObject(with: removed.data) as? [[String: Any]])
      #expect(Set(gone.compactMap { $0["name"] as? String }) == ["\(athleteID)/old", "\(athleteID)/avatar"])
      #expect(try await request(base, "GET", athletePath, bearer: athlete).real == 404)
    }
  }

  @Test("signed download and upload URLs work without a token, for their object only, until they expire")
  func signedURLs() async throws {
    try await withSandbox { base in
      let athlete = try await token(base, PrefsServer.athleteEmail)
      let parent = try await token(base, PrefsServer.parentEmail)
      let sign = "/storage/v1/object/sign/profile-photos/\(athleteID)/avatar"
      #expect(
        try await request(
          base, "POST", sign, body: try json(["expiresIn": "60"]), type: "application/json", bearer: athlete
        ).real == 404)
      let photo = PhotoTestImages.png(width: 9, height: 3)
      #expect(try await request(base, "POST", athletePath, body: photo, bearer: athlete).status == 200)
      // storage3 sends expiresIn as text; supabase-js as a number. A linked parent may sign too.
      for (user, expiresIn) in [(athlete, "60" as Any), (parent, 60 as Any)] {
        let signed = try await request(
          base, "POST", sign, body: try json(["expiresIn": expiresIn]), type: "application/json", bearer: user)
        let url = try #require(signed.object["signedURL"] as? String, "\(signed.object)")
        #expect(try await request(base, "GET", "/storage/v1" + url).data == photo)
        #expect(try await request(base, "GET", "/storage/v1" + url + "0").real == 400, "another token")
      }
      let elsewhere = try await request(
        base, "POST", sign, body: try json(["expiresIn": 60]), type: "application/json", bearer: athlete)
      let token = try #require((elsewhere.object["signedURL"] as? String)?.split(separator: "=").last)
      let other = try await request(
        base, "GET", "/storage/v1/object/sign/profile-photos/\(athleteID)/other?token=\(token)")
      #expect(other.object["error"] as? String == "InvalidSignature", "a token is for its object only")

      let uploadSign = "/storage/v1/object/upload/sign/profile-photos/\(athleteID)/fresh"
      #expect(try await request(base, "POST", uploadSign, bearer: parent).real == 403)
      let grant = try await request(base, "POST", uploadSign, bearer: athlete)
      let url = try #require(grant.object["url"] as? String, "\(grant.object)")
      #expect(url.hasSuffix("?token=\(grant.object["token"] as? String ?? "-")"))
      let (body, type) = form(photo, type: "image/png")
      let stored = try await request(base, "PUT", "/storage/v1" + url, body: body, type: type)
      #expect(stored.object["Key"] as? String == "profile-photos/\(athleteID)/fresh", "\(stored.object)")
      #expect(try await request(base, "PUT", "/storage/v1" + url, body: body, type: type).real == 409, "no upsert")
      #expect(
        try await request(base, "GET", "/storage/v1/object/profile-photos/\(athleteID)/fresh", bearer: athlete).data
          == photo)

      // An expired token (a second's grant, two seconds later).
      let expired = try await request(
        base, "POST", sign, body: try json(["expiresIn": 1]), type: "application/json", bearer: athlete)
      let expiredURL = try #require(expired.object["signedURL"] as? String)
      try await Task.sleep(for: .seconds(2))
      let late = try await request(base, "GET", "/storage/v1" + expiredURL)
      #expect(late.object["error"] as? String == "ExpiredToken", "\(late.object)")
    }
  }
}
