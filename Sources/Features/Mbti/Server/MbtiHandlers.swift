import DeckSupport
import Foundation
import Hummingbird
import NudgeAPI
import OpenAPIRuntime
internal import SQLKit
import SandboxKit
import SandboxMbtiAPI

/// The nudge service's MBTI quiz (mbti-quiz.md, "Backend endpoints") on the sandbox database.
struct MbtiHandlers: NudgeAPI.APIProtocol {
  let state: SandboxState

  typealias Schemas = NudgeAPI.Components.Schemas

  func getQuestions(_ input: NudgeAPI.Operations.getQuestions.Input) async throws
    -> NudgeAPI.Operations.getQuestions.Output
  {
    if let userID = input.query.user_id, UUID(uuidString: userID) == nil {
      return .badRequest(Self.error("user_id must be a UUID, got \"\(userID)\"."))
    }
    return .ok(
      .init(
        body: .json(MbtiScoring.questions.map { Schemas.QuestionOut(question: $0.text, options: MbtiScoring.options) }))
    )
  }

  func submitAnswers(_ input: NudgeAPI.Operations.submitAnswers.Input) async throws
    -> NudgeAPI.Operations.submitAnswers.Output
  {
    guard case .json(let body) = input.body else { throw SandboxAPIError.internalError }
    guard UUID(uuidString: body.user_id) != nil else {
      return .badRequest(Self.error("user_id must be a UUID, got \"\(body.user_id)\"."))
    }
    switch MbtiScoring.check(body.answers.additionalProperties) {
    case .failure(let problem):
      return .badRequest(
        .init(
          body: .json(
            .init(
              detail: problem.message, questions: problem.numbers.isEmpty ? nil : problem.numbers,
              unknown: problem.unknown.isEmpty ? nil : problem.unknown))))
    case .success(let answers):
      let (type, scores) = MbtiScoring.score(answers)
      let scoresJSON = String(decoding: try DeckJSON.compactEncoder.encode(scores), as: UTF8.self)
      let user = body.user_id.lowercased()
      try await state.database.write { db in
        try await db.execute(
          "INSERT INTO mbti_results (user_id, profile, scores, created_at) VALUES (?, ?, ?, ?)",
          [user, type, scoresJSON, Timestamps.now()])
      }
      return .ok(
        .init(
          body: .json(
            .init(
              user_id: body.user_id, profile: type,
              scores: .init(
                E: scores["E"] ?? 0, I: scores["I"] ?? 0, S: scores["S"] ?? 0, N: scores["N"] ?? 0,
                T: scores["T"] ?? 0, F: scores["F"] ?? 0, J: scores["J"] ?? 0, P: scores["P"] ?? 0)))))
    }
  }

  /// Details larger than this are refused (the events table is not a file store).
  static let maximumDetailsBytes = 16 * 1024

  func postEvent(_ input: NudgeAPI.Operations.postEvent.Input) async throws -> NudgeAPI.Operations.postEvent.Output {
    guard case .json(let body) = input.body else { throw SandboxAPIError.internalError }
    guard UUID(uuidString: body.user_id) != nil else {
      return .badRequest(Self.error("user_id must be a UUID, got \"\(body.user_id)\"."))
    }
    guard (1...100).contains(body.event_type.count) else {
      return .badRequest(Self.error("event_type must be 1 to 100 characters, got \(body.event_type.count)."))
    }
    let details = body.details ?? Schemas.EventDetails()
    let detailsJSON = try DeckJSON.compactEncoder.encode(details)
    guard detailsJSON.count <= Self.maximumDetailsBytes else {
      return .badRequest(Self.error("details is \(detailsJSON.count) bytes; at most \(Self.maximumDetailsBytes)."))
    }
    let key = input.headers.Idempotency_hyphen_Key
    if let key, !(1...100).contains(key.count) {
      return .badRequest(Self.error("Idempotency-Key must be 1 to 100 characters, got \(key.count)."))
    }
    let createdAt = Date()
    let user = body.user_id.lowercased()
    // A repeat of a key already recorded for this user stores nothing and answers the stored
    // event: the client resends what it never got an answer for (its outbox), and the event is
    // recorded once. The unique index settles two copies that arrive together.
    // The insert returns the new event; a repeat inserts nothing, and the stored one is read.
    // The write hands out the event's fields, not its row (not Sendable).
    let binds: [any Encodable & Sendable] = [
      user, body.event_type, String(decoding: detailsJSON, as: UTF8.self), createdAt.formatted(.iso8601), key,
    ]
    let stored = try await state.database.write { db -> StoredEvent? in
      var stored = try await db.fetchOne(
        StoredEvent.self,
        """
        INSERT INTO mbti_events (user_id, event_type, details, created_at, idempotency_key) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (user_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
        RETURNING \(Self.eventColumns)
        """, binds)
      if stored == nil, let key {
        stored = try await db.fetchOne(
          StoredEvent.self, Self.selectEvent + " WHERE user_id = ? AND idempotency_key = ?", [user, key])
      }
      return stored
    }
    guard let stored else { throw SandboxAPIError.internalError }
    let storedDetails = stored.details
    let storedAt = stored.createdAt
    return .created(
      .init(
        body: .json(
          .init(
            id: stored.id, user_id: body.user_id, event_type: stored.eventType,
            details: (try? JSONDecoder().decode(Schemas.EventDetails.self, from: Data(storedDetails.utf8))) ?? details,
            created_at: (try? Date(storedAt, strategy: .iso8601)) ?? createdAt))))
  }

  static let eventColumns = "id, user_id, event_type, details, created_at"
  static let selectEvent = "SELECT \(eventColumns) FROM mbti_events"

  /// A stored event's columns, as the write hands them out.
  struct StoredEvent: Sendable, Decodable {
    var id: Int
    var eventType: String
    var details: String
    var createdAt: String
  }

  static func error(_ message: String) -> NudgeAPI.Components.Responses._Error {
    .init(body: .json(.init(detail: message)))
  }

  @Sendable static func requestError(operationID: String, request: HTTPRequest, status: HTTPResponse.Status)
    -> SandboxAPIError
  {
    let message =
      switch operationID {
      case "submitAnswers":
        "The body must be {\"user_id\": UUID, \"answers\": {questionText: 1-5, …}} with nothing else."
      case "postEvent":
        "The body must be {\"user_id\": UUID, \"event_type\": string, \"details\": object}."
      default:
        "invalid request"
      }
    return SandboxAPIError(status: .badRequest, json: ["detail": .string(message)])
  }
}

/// The MBTI operator endpoints under /__sandbox/v1/mbti: the events the quiz emitted.
struct MbtiAdminHandlers: SandboxMbtiAPI.APIProtocol {
  let state: SandboxState

  func inspectEvents(_ input: SandboxMbtiAPI.Operations.inspectEvents.Input) async throws
    -> SandboxMbtiAPI.Operations.inspectEvents.Output
  {
    let query = input.query
    let limit = query.limit ?? 1000
    guard (1...10_000).contains(limit) else {
      return .badRequest(.init(body: .json(.init(error: "limit must be between 1 and 10000, got \(limit)."))))
    }
    // The newest `limit` events, shown oldest first.
    var sql = "SELECT id, user_id, event_type, details, created_at FROM mbti_events WHERE 1 = 1"
    var values: [any Encodable & Sendable] = []
    if let user = query.user_id {
      sql += " AND user_id = ?"
      values.append(user.lowercased())
    }
    if let type = query._type {
      sql += " AND event_type = ?"
      values.append(type)
    }
    sql = "SELECT * FROM (\(sql) ORDER BY id DESC LIMIT ?) AS newest ORDER BY id"
    values.append(limit)
    let (statement, binds) = (sql, values)
    let events = try await state.database.read { db in
      try await db.fetchAll(statement, binds).map(Self.event)
    }
    return .ok(.init(body: .json(events)))
  }

  /// A row of `mbti_events`.
  struct EventRow: Decodable {
    var id: Int
    var userId: String
    var eventType: String
    var details: String
    var createdAt: String
  }

  static func event(_ row: any SQLRow) throws -> SandboxMbtiAPI.Components.Schemas.StoredEvent {
    let event = try row.decode(EventRow.self)
    let decoded = try? JSONDecoder().decode(
      SandboxMbtiAPI.Components.Schemas.StoredEvent.detailsPayload.self, from: Data(event.details.utf8))
    return .init(
      id: event.id, user_id: event.userId, event_type: event.eventType, details: decoded ?? .init(),
      created_at: (try? Date(event.createdAt, strategy: .iso8601)) ?? Date(timeIntervalSince1970: 0))
  }

  @Sendable static func requestError(operationID: String, request: HTTPRequest, status: HTTPResponse.Status)
    -> SandboxAPIError
  {
    .simple(.badRequest, "Bad query: user_id and type are strings, limit an integer from 1 to 10000.")
  }
}
