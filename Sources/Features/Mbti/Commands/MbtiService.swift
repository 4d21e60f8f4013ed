import DeckCore
import DeckSupport
import Foundation
import MbtiRules
import NudgeAPI
import OpenAPIRuntime
import Synchronization

/// Calls the nudge service's quiz endpoints (mbti-quiz.md, "Networking"). No token: the user
/// is the anonymous id of `MbtiStore`.
struct MbtiService: Sendable {
  let context: DeckContext

  func client(timeout: Double? = nil) async throws -> Client {
    try await context.client(.nudge, auth: .none) { Client(serverURL: $0, transport: $1, middlewares: $2) }
  }

  /// `GET /questions/`, checked: a list that is empty, has blank or duplicated texts is refused
  /// before any quiz starts (exit 1), and a failure to fetch it says "Couldn't load questions".
  func questions(userID: String) async throws -> QuestionSet {
    let list: [Components.Schemas.QuestionOut]
    do {
      list = try await client().getQuestions(query: .init(user_id: userID)).ok.body.json
    } catch {
      let problem = ErrorPresenter.deckError(for: error)
      throw DeckError(
        problem.kind, "Couldn’t load questions: \(problem.message)",
        hint: problem.hint ?? "Check the nudge service with `deck env show`, then try again.")
    }
    do {
      return try QuestionSet(list.map { MbtiQuestion(question: $0.question, options: $0.options) })
    } catch {
      throw DeckError.failure(
        "The quiz cannot start: \(error.message)",
        hint: "Nothing was submitted. The nudge service's questions need fixing.")
    }
  }

  /// `POST /answers/`; the result must be a well-formed type with every score.
  func submit(userID: String, answers: [String: Int]) async throws -> MbtiProfile {
    let response = try await client().submitAnswers(
      body: .json(.init(user_id: userID, answers: .init(additionalProperties: answers)))
    ).ok.body.json
    let scores = response.scores
    let profile = MbtiProfile(
      userId: response.user_id, profile: response.profile,
      scores: [
        "E": scores.E, "I": scores.I, "S": scores.S, "N": scores.N, "T": scores.T, "F": scores.F, "J": scores.J,
        "P": scores.P,
      ])
    guard profile.isWellFormed else {
      throw DeckError.failure(
        "The nudge service answered with a type deck cannot read: \"\(profile.profile)\".",
        hint: "Nothing was saved. Try again, or check the environment with `deck env show`.")
    }
    return profile
  }
}

/// The quiz's analytics events (mbti-quiz.md, "Analytics & events"), fire-and-forget: each is
/// sent in the background, a failure is ignored, and `finish()` waits for the ones in flight
/// for at most a short bound, so an events endpoint that is down never fails or slows the
/// command by more than that. `--trace` shows them like any request.
final class MbtiEvents: Sendable {
  /// How long the command waits, in all, for events still in flight when it ends.
  static let bound: Duration = .seconds(1)

  private let service: MbtiService
  private let userID: String
  private let pending = Mutex<[Task<Void, Never>]>([])

  init(service: MbtiService, userID: String) {
    self.service = service
    self.userID = userID
  }

  func send(_ type: String, _ details: [String: String] = [:]) {
    let service = service
    let userID = userID
    let task = Task {
      let container = (try? OpenAPIObjectContainer(unvalidatedValue: details)) ?? OpenAPIObjectContainer()
      _ = try? await service.client().postEvent(
        body: .json(.init(user_id: userID, event_type: type, details: .init(additionalProperties: container))))
    }
    pending.withLock { $0.append(task) }
  }

  /// Waits for the events in flight, for at most `bound`; the rest are cancelled.
  func finish() async {
    let tasks = pending.withLock { tasks in
      defer { tasks = [] }
      return tasks
    }
    guard !tasks.isEmpty else { return }
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        for task in tasks { await task.value }
      }
      group.addTask {
        try? await Task.sleep(for: Self.bound)
        for task in tasks { task.cancel() }
      }
      await group.next()
      group.cancelAll()
    }
  }
}
