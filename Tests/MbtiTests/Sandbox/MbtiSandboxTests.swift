import Foundation
import NudgeAPI
import TestSupport
import Testing

@testable import MbtiServer
@testable import SandboxKit

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("MBTI scoring")
struct MbtiScoringTests {
  /// The answers that agree fully with every question pointing toward `letters`, and disagree
  /// fully with the others.
  func answers(agreeingWith letters: Set<Character>) -> [Int] {
    MbtiScoring.questions.map { letters.contains($0.letter) ? 5 : 1 }
  }

  @Test("24 questions, 6 per axis, 3 toward each letter, every text unique")
  func questionSet() {
    #expect(MbtiScoring.questions.count == 24)
    #expect(Set(MbtiScoring.questions.map(\.text)).count == 24)
    for letter in "EISNTFJP" {
      #expect(MbtiScoring.questions.count { $0.letter == letter } == 3, "letter \(letter)")
    }
  }

  @Test("the NudgeAPI contract lists exactly the questions the sandbox serves, in order")
  func contractListsTheQuestions() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let contract = root.appendingPathComponent(NudgeContract.document)
    let lines = try String(contentsOf: contract, encoding: .utf8).split(separator: "\n").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    let start = try #require(lines.firstIndex(of: "propertyNames:"))
    let listed = lines[(start + 2)...].prefix { $0.hasPrefix("- \"") }.map { String($0.dropFirst(3).dropLast()) }
    #expect(listed == MbtiScoring.questions.map(\.text))
  }

  @Test("fixed answer sets give known types (the spec's integration test)")
  func knownTypes() {
    #expect(MbtiScoring.score(Array(repeating: 3, count: 24)).type == "INFP", "a tie on every axis")
    #expect(MbtiScoring.score(answers(agreeingWith: ["E", "S", "T", "J"])).type == "ESTJ")
    #expect(MbtiScoring.score(answers(agreeingWith: ["I", "N", "T", "J"])).type == "INTJ")
    let estj = MbtiScoring.score(answers(agreeingWith: ["E", "S", "T", "J"])).scores
    #expect(estj == ["E": 24, "I": 0, "S": 24, "N": 0, "T": 24, "F": 0, "J": 24, "P": 0])
  }

  @Test("each axis's two scores add up to 24, and the type follows the higher one (ties to I, N, F, P)")
  func axesAddUp() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<500 {
      let answers = (0..<24).map { _ in Int.random(in: 1...5, using: &generator) }
      let (type, scores) = MbtiScoring.score(answers)
      for (index, (first, second)) in MbtiScoring.axes.enumerated() {
        let a = scores[String(first)] ?? -1
        let b = scores[String(second)] ?? -1
        #expect(a + b == 24)
        #expect(Array(type)[index] == (a > b ? first : second))
      }
    }
  }

  @Test("unknown texts, values outside 1-5 and missing answers are named")
  func check() {
    let texts = MbtiScoring.questions.map(\.text)
    var answers = Dictionary(uniqueKeysWithValues: texts.map { ($0, 3) })
    answers[texts[4]] = 0
    answers[texts[9]] = 6
    guard case .failure(let range) = MbtiScoring.check(answers) else { return #expect(Bool(false)) }
    #expect(range.numbers == [5, 10])
    answers[texts[4]] = nil
    answers[texts[9]] = nil
    guard case .failure(let missing) = MbtiScoring.check(answers) else { return #expect(Bool(false)) }
    #expect(missing.numbers == [5, 10])
    #expect(missing.message == "Every question needs an answer; questions 5, 10 have none.")
    answers[texts[4]] = 3
    guard case .failure(let one) = MbtiScoring.check(answers) else { return #expect(Bool(false)) }
    #expect(one.message == "Every question needs an answer; question 10 has none.")
    answers[texts[4]] = nil
    answers["you start conversations with strangers at events without much effort."] = 3
    guard case .failure(let unknown) = MbtiScoring.check(answers) else { return #expect(Bool(false)) }
    #expect(
      unknown.unknown == ["you start conversations with strangers at events without much effort."],
      "texts match exactly, case included")
  }
}

@Suite("MBTI over HTTP", .serialized)
struct MbtiServerTests {
  struct Reply {
    var status: Int
    var json: Any?
  }

  func request(
    _ base: URL, _ method: String, _ path: String, body: Any? = nil, bearer: String? = nil,
    headers: [String: String] = [:]
  ) async throws -> Reply {
    var request = URLRequest(url: URL(string: base.absoluteString + path)!)
    request.httpMethod = method
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
    if let body {
      request.httpBody = try JSONSerialization.data(withJSONObject: body)
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
    let (data, response) = try await URLSession.shared.data(for: request)
    return Reply(
      status: (response as? HTTPURLResponse)?.statusCode ?? 0,
      json: data.isEmpty ? nil : try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
  }

  @Test func questionsAnswersAndEvents() async throws {
    let directory = try ScratchDirectory()
    defer { directory.cleanUp() }
    let sandbox = try await SandboxServer.start(.init(databasePath: directory.path("sandbox.sqlite")))
    defer { Task { await sandbox.stop() } }
    let base = sandbox.baseURL
    let user = UUID().uuidString

    let questions = try await request(base, "GET", "/questions/?user_id=\(user)")
    #expect(questions.status == 200)
    let list = try #require(questions.json as? [[String: Any]])
    #expect(list.count == 24)
    #expect(list.allSatisfy { ($0["options"] as? [String]) == ["Agree", "Disagree"] })
    let texts = list.compactMap { $0["question"] as? String }
    #expect(texts == MbtiScoring.questions.map(\.text), "served in order, exactly")
    #expect(try await request(base, "GET", "/questions/?user_id=nope").status == 400)

    let neutral = Dictionary(uniqueKeysWithValues: texts.map { ($0, 3) })
    let scored = try await request(base, "POST", "/answers/", body: ["user_id": user, "answers": neutral])
    #expect(scored.status == 200)
    let profile = try #require(scored.json as? [String: Any])
    #expect(profile["profile"] as? String == "INFP")
    #expect(profile["user_id"] as? String == user)
    #expect((profile["scores"] as? [String: Int])?["E"] == 12)

    var wrong = neutral
    wrong[texts[2]] = 7
    let range = try await request(base, "POST", "/answers/", body: ["user_id": user, "answers": wrong])
    #expect(range.status == 400)
    #expect((range.json as? [String: Any])?["questions"] as? [Int] == [3])
    #expect((range.json as? [String: Any])?["detail"] as? String == "Answers must be 1-5; question 3 is not.")
    var unknown = neutral
    unknown["Not a question"] = 3
    let badText = try await request(base, "POST", "/answers/", body: ["user_id": user, "answers": unknown])
    #expect(badText.status == 400)
    #expect((badText.json as? [String: Any])?["unknown"] as? [String] == ["Not a question"])
    var missing = neutral
    missing[texts[23]] = nil
    let gap = try await request(base, "POST", "/answers/", body: ["user_id": user, "answers": missing])
    #expect(gap.status == 400)
    #expect((gap.json as? [String: Any])?["questions"] as? [Int] == [24])
    let notUUID = try await request(base, "POST", "/answers/", body: ["user_id": "me", "answers": neutral])
    #expect(notUUID.status == 400)
    #expect(((notUUID.json as? [String: Any])?["detail"] as? String)?.contains("UUID") == true)
    let malformed = try await request(base, "POST", "/answers/", body: ["answers": neutral])
    #expect(malformed.status == 400)

    let event = try await request(
      base, "POST", "/events/", body: ["user_id": user, "event_type": "mbti_completed", "details": ["type": "INFP"]])
    #expect(event.status == 201)
    _ = try await request(base, "POST", "/events/", body: ["user_id": user, "event_type": "mbti_submitted"])
    _ = try await request(
      base, "POST", "/events/", body: ["user_id": UUID().uuidString, "event_type": "onboarding_take_test"])
    #expect(try await request(base, "POST", "/events/", body: ["user_id": "x", "event_type": "a"]).status == 400)
    #expect(try await request(base, "POST", "/events/", body: ["user_id": user, "event_type": ""]).status == 400)
    let nullDetails: [String: Any] = ["user_id": user, "event_type": "a", "details": NSNull()]
    #expect(try await request(base, "POST", "/events/", body: nullDetails).status == 400, "null is not an object")

    #expect(
      try await request(base, "GET", "/__sandbox/v1/mbti/events").status == 401, "operator endpoints need the token")
    let mine = try await request(base, "GET", "/__sandbox/v1/mbti/events?user_id=\(user)", bearer: sandbox.adminToken)
    let events = try #require(mine.json as? [[String: Any]])
    #expect(events.map { $0["event_type"] as? String } == ["mbti_completed", "mbti_submitted"])
    #expect((events.first?["details"] as? [String: String]) == ["type": "INFP"])
    let completed = try await request(
      base, "GET", "/__sandbox/v1/mbti/events?type=mbti_completed", bearer: sandbox.adminToken)
    #expect((completed.json as? [[String: Any]])?.count == 1)
    // A limit keeps the newest events, still shown oldest first.
    let newest = try await request(base, "GET", "/__sandbox/v1/mbti/events?limit=2", bearer: sandbox.adminToken)
    #expect(
      (newest.json as? [[String: Any]])?.map { $0["event_type"] as? String } == [
        "mbti_submitted", "onboarding_take_test",
      ])
  }

  @Test("an event resent with the same Idempotency-Key is recorded once, and answered with the stored one")
  func idempotentEvents() async throws {
    let directory = try ScratchDirectory()
    defer { directory.cleanUp() }
    let sandbox = try await SandboxServer.start(.init(databasePath: directory.path("sandbox.sqlite")))
    defer { Task { await sandbox.stop() } }
    let base = sandbox.baseURL
    let user = UUID().uuidString
    let key = UUID().uuidString
    let body: [String: Any] = ["user_id": user, "event_type": "mbti_completed", "details": ["type": "INFP"]]
    let first = try await request(base, "POST", "/events/", body: body, headers: ["Idempotency-Key": key])
    #expect(first.status == 201)
    let again = try await request(base, "POST", "/events/", body: body, headers: ["Idempotency-Key": key])
    #expect(again.status == 201)
    let firstID = (first.json as? [String: Any])?["id"] as? Int
    #expect(firstID != nil)
    #expect((again.json as? [String: Any])?["id"] as? Int == firstID, "the stored event is answered")
    #expect(((again.json as? [String: Any])?["details"] as? [String: String]) == ["type": "INFP"])
    // Another key, no key, or the same key for another user: new events.
    _ = try await request(base, "POST", "/events/", body: body, headers: ["Idempotency-Key": UUID().uuidString])
    _ = try await request(base, "POST", "/events/", body: body)
    _ = try await request(base, "POST", "/events/", body: body)
    var other = body
    other["user_id"] = UUID().uuidString
    _ = try await request(base, "POST", "/events/", body: other, headers: ["Idempotency-Key": key])
    let tooLong = try await request(
      base, "POST", "/events/", body: body, headers: ["Idempotency-Key": String(repeating: "k", count: 101)])
    #expect(tooLong.status == 400)
    let mine = try await request(base, "GET", "/__sandbox/v1/mbti/events?user_id=\(user)", bearer: sandbox.adminToken)
    #expect((mine.json as? [[String: Any]])?.count == 4)
    let all = try await request(base, "GET", "/__sandbox/v1/mbti/events", bearer: sandbox.adminToken)
    #expect((all.json as? [[String: Any]])?.count == 5)
  }
}
