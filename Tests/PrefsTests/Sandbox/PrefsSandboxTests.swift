import Foundation
import TestSupport
import Testing

@testable import PrefsServer
@testable import SandboxKit

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The recruiting service's preferences API, the geocoder and the prefs operator endpoints, over
/// HTTP against an embedded server on a temporary database.
@Suite("Preferences over HTTP", .serialized)
struct PrefsServerTests {
  struct Reply {
    var status: Int
    var json: Any?
    var object: [String: Any] { json as? [String: Any] ?? [:] }
    var error: String { object["error"] as? String ?? "" }
  }

  func request(_ base: URL, _ method: String, _ path: String, body: String? = nil, bearer: String? = nil) async throws
    -> Reply
  {
    var request = URLRequest(url: try #require(URL(string: base.absoluteString + path)))
    request.httpMethod = method
    if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
    if let body {
      request.httpBody = Data(body.utf8)
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
    let (data, response) = try await URLSession.shared.data(for: request)
    return Reply(
      status: (response as? HTTPURLResponse)?.statusCode ?? 0,
      json: data.isEmpty ? nil : try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
  }

  func token(_ base: URL, _ email: String) async throws -> String {
    let reply = try await request(
      base, "POST", "/auth/v1/token?grant_type=password", body: #"{"email":"\#(email)","password":"sandbox"}"#)
    return try #require(reply.object["access_token"] as? String, "sign-in of \(email): \(reply.status)")
  }

  /// Runs `body` against a fresh sandbox.
  func withSandbox(_ body: (URL, String) async throws -> Void) async throws {
    let directory = try ScratchDirectory()
    defer { directory.cleanUp() }
    let sandbox = try await SandboxServer.start(.init(databasePath: directory.path("sandbox.sqlite")))
    do {
      try await body(sandbox.baseURL, sandbox.adminToken)
    } catch {
      await sandbox.stop()
      throw error
    }
    await sandbox.stop()
  }

  @Test("reads need a token; nothing stored reads as data null")
  func readsAndDefaults() async throws {
    try await withSandbox { base, _ in
      let anonymous = try await request(base, "GET", "/api/user/preferences/notifications")
      #expect(anonymous.status == 401)
      #expect(anonymous.error == "a valid access token is required")
      #expect(try await request(base, "GET", "/api/user/preferences/notifications", bearer: "nope").status == 401)
      let athlete = try await token(base, "athlete@sandbox.test")
      let fresh = try await request(base, "GET", "/api/user/preferences/notifications", bearer: athlete)
      #expect(fresh.status == 200)
      #expect(fresh.object["data"] is NSNull)
      #expect(fresh.object["createdAt"] is NSNull, "required nulls are written out")
      #expect(fresh.object["owner"] as? String == "athlete@sandbox.test")
      #expect(fresh.object["readOnly"] as? Bool == false)
    }
  }

  @Test("a complete document is stored and read back; a bad one gets 400 naming every field")
  func validation() async throws {
    try await withSandbox { base, _ in
      let athlete = try await token(base, "athlete@sandbox.test")
      let settings =
        #"{"followUpReminderDays":14,"enableFollowUpReminders":true,"enableDeadlineAlerts":false,"enableDailyDigest":true,"enableInboundInteractionAlerts":true,"enableEmailNotifications":true,"emailOnlyHighPriority":false,"quietHoursStart":"22:00"}"#
      let saved = try await request(
        base, "POST", "/api/user/preferences/notifications", body: settings, bearer: athlete)
      #expect(saved.status == 200, "\(saved.object)")
      #expect((saved.object["data"] as? [String: Any])?["followUpReminderDays"] as? Int == 14)
      let read = try await request(base, "GET", "/api/user/preferences/notifications", bearer: athlete)
      #expect((read.object["data"] as? [String: Any])?["enableDeadlineAlerts"] as? Bool == false)
      #expect(read.object["updatedAt"] is String)

      let bad = settings.replacingOccurrences(of: "14", with: "500").replacingOccurrences(of: "22:00", with: "25:00")
      let refused = try await request(base, "POST", "/api/user/preferences/notifications", body: bad, bearer: athlete)
      #expect(refused.status == 400)
      #expect(refused.error.contains("followUpReminderDays: 500 is out of range; allowed 1–90"))
      #expect(refused.error.contains(#"quietHoursStart: "25:00" is not a time of day"#))
      let issues = try #require(refused.object["issues"] as? [[String: Any]])
      #expect(issues.compactMap { $0["field"] as? String } == ["followUpReminderDays", "quietHoursStart"])

      let unknown = try await request(
        base, "POST", "/api/user/preferences/location", body: #"{"zipcode":"02139"}"#, bearer: athlete)
      #expect(unknown.status == 400)
      #expect(unknown.error == "zipcode: unknown location field; did you mean zip?")
      let lowercase = try await request(
        base, "POST", "/api/user/preferences/location", body: #"{"state":"ca"}"#, bearer: athlete)
      #expect(lowercase.status == 400, "stored as sent: clients upper-case it")
      #expect(
        try await request(base, "POST", "/api/user/preferences/location", body: "not json", bearer: athlete).status
          == 400)
      // The values stored before are still there.
      let after = try await request(base, "GET", "/api/user/preferences/notifications", bearer: athlete)
      #expect((after.object["data"] as? [String: Any])?["followUpReminderDays"] as? Int == 14)
    }
  }

  @Test("parents read the linked athlete's player details and may not change them (403)")
  func parents() async throws {
    try await withSandbox { base, admin in
      let athlete = try await token(base, "athlete@sandbox.test")
      let parent = try await token(base, "parent@sandbox.test")
      let patch = try await request(
        base, "PATCH", "/api/user/preferences/player-details", body: #"{"gpa":3.8,"positions":["SS","2B"]}"#,
        bearer: athlete)
      #expect(patch.status == 200, "\(patch.object)")
      #expect(patch.object["fitScoreRecalculated"] as? Bool == true)

      let read = try await request(base, "GET", "/api/user/preferences/player", bearer: parent)
      #expect(read.status == 200)
      #expect(read.object["owner"] as? String == "athlete@sandbox.test")
      #expect(read.object["readOnly"] as? Bool == true)
      #expect((read.object["data"] as? [String: Any])?["gpa"] as? Double == 3.8)

      for (method, path, body) in [
        ("POST", "/api/user/preferences/player", "{}"),
        ("PATCH", "/api/user/preferences/player-details", #"{"gpa":1}"#),
        ("DELETE", "/api/user/preferences/player", nil),
        ("POST", "/api/user/preferences/player/history", #"{"changes":[{"field":"gpa","old":null,"new":"1"}]}"#),
      ] {
        let refused = try await request(base, method, path, body: body, bearer: parent)
        #expect(refused.status == 403, "\(method) \(path)")
        #expect(refused.error.hasPrefix("Parents can read the player details but not change them"))
      }
      // Both roles write the other categories.
      let dashboard = try await request(base, "DELETE", "/api/user/preferences/dashboard", bearer: parent)
      #expect(dashboard.status == 200)
      #expect(dashboard.object["deleted"] as? Bool == false)

      let inspected = try await request(
        base, "GET", "/__sandbox/v1/prefs/user?email=athlete@sandbox.test", bearer: admin)
      #expect(
        inspected.object["fitScoreRecalculations"] as? Int == 1, "the PATCH's post-save hook; the refused ones none")
      #expect(inspected.object["linkedParents"] as? [String] == ["parent@sandbox.test"])
      #expect(inspected.object["role"] as? String == "athlete")
      let parentView = try await request(
        base, "GET", "/__sandbox/v1/prefs/user?email=PARENT@sandbox.test", bearer: admin)
      #expect(parentView.object["linkedAthlete"] as? String == "athlete@sandbox.test")
      #expect(parentView.object["role"] as? String == "parent")
      #expect(try await request(base, "GET", "/__sandbox/v1/prefs/user?email=nobody@x.co", bearer: admin).status == 404)
    }
  }

  @Test("a merge patch sets and clears; the school list is renumbered; repeated ids are a conflict")
  func patchAndSchool() async throws {
    try await withSandbox { base, _ in
      let athlete = try await token(base, "athlete@sandbox.test")
      _ = try await request(
        base, "PATCH", "/api/user/preferences/player-details", body: #"{"gpa":3.8,"bats":"L"}"#, bearer: athlete)
      let cleared = try await request(
        base, "PATCH", "/api/user/preferences/player-details", body: #"{"gpa":null,"satScore":1400}"#, bearer: athlete)
      let data = try #require(cleared.object["data"] as? [String: Any])
      #expect(data["gpa"] == nil)
      #expect(data["bats"] as? String == "L")
      #expect(data["satScore"] as? Int == 1400)
      let out = try await request(
        base, "PATCH", "/api/user/preferences/player-details", body: #"{"satScore":1700}"#, bearer: athlete)
      #expect(out.status == 400)
      #expect(out.error == "satScore: 1700 is out of range; allowed 400–1600")

      let list = #"""
        {"preferences":[
          {"id":"a","category":"location","type":"max_distance_miles","value":300,"priority":9,"isDealbreaker":false},
          {"id":"b","category":"program","type":"division","value":["D1","D3"],"priority":3,"isDealbreaker":true}]}
        """#
      let school = try await request(base, "POST", "/api/user/preferences/school", body: list, bearer: athlete)
      #expect(school.status == 200, "\(school.object)")
      let stored = try #require((school.object["data"] as? [String: Any])?["preferences"] as? [[String: Any]])
      #expect(stored.compactMap { $0["id"] as? String } == ["b", "a"])
      #expect(stored.compactMap { $0["priority"] as? Int } == [1, 2])
      let twice = list.replacingOccurrences(of: #""id":"b""#, with: #""id":"a""#)
      let conflict = try await request(base, "POST", "/api/user/preferences/school", body: twice, bearer: athlete)
      #expect(conflict.status == 409)
      #expect(conflict.error == #"preference 2 id: "a" is also the id of preference 1; use a unique id"#)
      let mismatch = list.replacingOccurrences(of: #""category":"program""#, with: #""category":"custom""#)
      let refused = try await request(base, "POST", "/api/user/preferences/school", body: mismatch, bearer: athlete)
      #expect(refused.status == 400)
      #expect(refused.error.contains("preference 2 category"))
    }
  }

  @Test("history: recorded entries come back newest first, limited; bad records get 400")
  func history() async throws {
    try await withSandbox { base, _ in
      let athlete = try await token(base, "athlete@sandbox.test")
      let record =
        #"{"changes":[{"field":"gpa","old":null,"new":"3.8"},{"field":"positions","old":"SS","new":"SS, 2B"}]}"#
      let recorded = try await request(
        base, "POST", "/api/user/preferences/player/history", body: record, bearer: athlete)
      #expect(recorded.status == 201)
      #expect((recorded.json as? [[String: Any]])?.first?["old"] is NSNull)
      let entries = try await request(base, "GET", "/api/user/preferences/player/history?limit=1", bearer: athlete)
      let list = try #require(entries.json as? [[String: Any]])
      #expect(list.count == 1)
      #expect(list.first?["field"] as? String == "positions")
      #expect(list.first?["changedBy"] as? String == "athlete@sandbox.test")
      let blank = try await request(
        base, "POST", "/api/user/preferences/player/history",
        body: #"{"changes":[{"field":" ","old":null,"new":"x"}]}"#,
        bearer: athlete)
      #expect(blank.status == 400)
      #expect(blank.error.contains(#"changes 1 field: " " is blank"#))
      #expect(
        try await request(
          base, "POST", "/api/user/preferences/player/history", body: #"{"changes":[]}"#, bearer: athlete
        )
        .status == 400)
      #expect(
        try await request(base, "GET", "/api/user/preferences/players/history", bearer: athlete).status == 400,
        "an unknown category")
    }
  }

  @Test("the geocoder answers the Census shape from the ZIP centroid, without a token")
  func geocoder() async throws {
    try await withSandbox { base, _ in
      let query =
        "address=77%20Massachusetts%20Ave,%20Cambridge,%20MA%2002139-4307&benchmark=Public_AR_Current&format=json"
      let found = try await request(base, "GET", "/geocoder/locations/onelineaddress?" + query)
      #expect(found.status == 200)
      let result = try #require(found.object["result"] as? [String: Any])
      let match = try #require((result["addressMatches"] as? [[String: Any]])?.first)
      #expect(match["matchedAddress"] as? String == "77 MASSACHUSETTS AVE, CAMBRIDGE, MA, 02139")
      let coordinates = try #require(match["coordinates"] as? [String: Double])
      #expect(abs((coordinates["y"] ?? 0) - 42.3647) < 0.001)
      #expect(abs((coordinates["x"] ?? 0) + 71.1042) < 0.001)
      #expect((match["addressComponents"] as? [String: String])?["state"] == "MA")
      #expect(
        ((result["input"] as? [String: Any])?["benchmark"] as? [String: Any])?["benchmarkName"] as? String
          == "Public_AR_Current")

      let nowhere = try await request(
        base, "GET", "/geocoder/locations/onelineaddress?address=Nowhere&benchmark=Public_AR_Current&format=json")
      #expect(((nowhere.object["result"] as? [String: Any])?["addressMatches"] as? [Any])?.isEmpty == true)
      let blank = try await request(
        base, "GET", "/geocoder/locations/onelineaddress?address=%20%20&benchmark=Public_AR_Current&format=json")
      #expect(blank.status == 400)
      #expect(blank.object["errors"] as? [String] == [GeocoderHandlers.addressProblem])
      #expect(blank.object["status"] as? String == "400")
      let html = try await request(
        base, "GET", "/geocoder/locations/onelineaddress?address=x&benchmark=Public_AR_Current&format=html")
      #expect(html.status == 400)
    }
  }

  @Test("the operator can store a corrupted document, which the API returns as is")
  func corruption() async throws {
    try await withSandbox { base, admin in
      let stored = try await request(
        base, "PUT", "/__sandbox/v1/prefs/stored",
        body: #"{"email":"athlete@sandbox.test","category":"notifications","data":{"followUpReminderDays":"often"}}"#,
        bearer: admin)
      #expect(stored.status == 200)
      #expect(stored.object["stored"] as? Bool == true)
      let athlete = try await token(base, "athlete@sandbox.test")
      let read = try await request(base, "GET", "/api/user/preferences/notifications", bearer: athlete)
      #expect((read.object["data"] as? [String: Any])?["followUpReminderDays"] as? String == "often")
      let deleted = try await request(
        base, "PUT", "/__sandbox/v1/prefs/stored",
        body: #"{"email":"athlete@sandbox.test","category":"notifications","data":null}"#, bearer: admin)
      #expect(deleted.object["stored"] as? Bool == false)
      #expect(
        try await request(base, "GET", "/api/user/preferences/notifications", bearer: athlete).object["data"] is NSNull)
    }
  }

  @Test("ZIP centroids: every line of the table is found by a binary search, others are not")
  func centroids() {
    let lines = ZipCentroidsData.csv.split(separator: "\n")
    #expect(lines.count > 40_000)
    let sample = Array(stride(from: 0, to: lines.count, by: 97)) + [lines.count - 1]
    #expect(sample.allSatisfy { ZIPCentroids.lookup(String(lines[$0].prefix(5)))?.zip == String(lines[$0].prefix(5)) })
    #expect(ZIPCentroids.lookup("00000") == nil)
    #expect(ZIPCentroids.lookup("99999") == nil)
    #expect(ZIPCentroids.lookup("0213") == nil)
    #expect(ZIPCentroids.zip(in: "1 Main St, Springfield, IL 62701-1234") == "62701")
    #expect(ZIPCentroids.zip(in: "12345678 Long Rd") == nil)
  }
}
