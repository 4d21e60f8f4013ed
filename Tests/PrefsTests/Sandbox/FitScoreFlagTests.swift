import Foundation
import TestSupport
import Testing

@testable import PrefsServer
@testable import SandboxKit

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `fitScoreRecalculated` is the answer of a player save alone (issue 46, item 1: the QA run saw
/// it on school and location saves, sometimes). Saves of the other pages, many of them over kept
/// connections while another user's player saves run beside them, never carry it, and only the
/// player saves move the sandbox's recalculation count.
@Suite("fitScoreRecalculated on player saves only", .serialized)
struct FitScoreFlagTests {
  static let rounds = 40

  static let bodies: [(path: String, body: String)] = [
    (
      "/api/user/preferences/school",
      #"{"preferences":[{"id":"a","category":"program","type":"division","value":["D1"],"priority":1,"isDealbreaker":false}]}"#
    ),
    ("/api/user/preferences/location", #"{"city":"Boston","state":"MA","zip":"02139"}"#),
    (
      "/api/user/preferences/notifications",
      #"{"followUpReminderDays":14,"enableFollowUpReminders":true,"enableDeadlineAlerts":false,"enableDailyDigest":true,"enableInboundInteractionAlerts":true,"enableEmailNotifications":true,"emailOnlyHighPriority":false,"quietHoursStart":"22:00"}"#
    ),
  ]

  func post(_ base: URL, _ method: String, _ path: String, _ body: String?, bearer: String) async throws -> (
    status: Int, object: [String: Any]
  ) {
    var request = URLRequest(url: try #require(URL(string: base.absoluteString + path)))
    request.httpMethod = method
    request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization")
    if let body {
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
      request.httpBody = Data(body.utf8)
    }
    let (data, response) = try await URLSession.shared.data(for: request)
    let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, object)
  }

  func token(_ base: URL, _ email: String) async throws -> String {
    let reply = try await post(
      base, "POST", "/auth/v1/token?grant_type=password", #"{"email":"\#(email)","password":"sandbox"}"#, bearer: "")
    return try #require(reply.object["access_token"] as? String, "sign-in of \(email): \(reply.status)")
  }

  @Test func onlyPlayerSavesSayTheFitScoresAreRecalculated() async throws {
    let directory = try ScratchDirectory()
    defer { directory.cleanUp() }
    let sandbox = try await SandboxServer.start(.init(databasePath: directory.path("sandbox.sqlite")))
    do {
      let base = sandbox.baseURL
      let athlete = try await token(base, PrefsServer.athleteEmail)
      let parent = try await token(base, PrefsServer.parentEmail)
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
          for round in 0..<Self.rounds {
            let saved = try await post(
              base, "PATCH", "/api/user/preferences/player-details", #"{"gpa":\#(2 + Double(round % 20) / 10)}"#,
              bearer: athlete)
            #expect(saved.status == 200, "\(saved.object)")
            #expect(saved.object["fitScoreRecalculated"] as? Bool == true, "player save \(round)")
          }
        }
        group.addTask {
          for round in 0..<Self.rounds {
            for (path, body) in Self.bodies {
              let saved = try await post(base, "POST", path, body, bearer: parent)
              #expect(saved.status == 200, "\(path): \(saved.object)")
              #expect(saved.object["fitScoreRecalculated"] == nil, "\(path), round \(round): \(saved.object)")
            }
          }
        }
        try await group.waitForAll()
      }
      for (email, count) in [(PrefsServer.athleteEmail, Self.rounds), (PrefsServer.parentEmail, 0)] {
        let inspected = try await post(
          base, "GET", "/__sandbox/v1/prefs/user?email=\(email)", nil, bearer: sandbox.adminToken)
        #expect(inspected.object["fitScoreRecalculations"] as? Int == count, "\(email)")
      }
    } catch {
      await sandbox.stop()
      throw error
    }
    await sandbox.stop()
  }
}
