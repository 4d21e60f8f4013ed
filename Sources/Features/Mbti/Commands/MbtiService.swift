import DeckCore
import DeckSupport
import FoundationEssentials
import MbtiRules
import NudgeAPI
import OpenAPIRuntime
import Synchronization

/// Calls the nudge service's quiz endpoints (mbti-quiz.md, "Networking"). No token: the user
/// is the anonymous id of `MbtiStore`.
struct MbtiService: Sendable {
  let context: DeckContext

  /// The nudge client; `timeout` replaces the command's `--timeout` (events use a short one).
  /// `faultMark` keeps the sandbox fault rule that shaped an answer.
  func client(timeout: Duration? = nil, faultMark: SandboxFaultMark? = nil) async throws -> Client {
    try await context.client(.nudge, auth: .none, timeout: timeout) {
      Client(serverURL: $0, transport: $1, middlewares: $2 + (faultMark.map { [$0] } ?? []))
    }
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

/// The quiz's analytics events (mbti-quiz.md, "Analytics & events"): they never fail or hold up
/// the quiz, and they are not lost.
///
/// - Each event is written to the environment's outbox (`MbtiOutbox`) before it is sent, and
///   removed when the service confirms it. What the outbox already held (events an earlier
///   command could not deliver) goes out first: every command that talks to nudge makes one.
/// - Events go out one at a time, in order, from one background task, so they hold at most
///   one of the connection pool's connections to the nudge host: however many pages are
///   turned while the endpoint hangs, the questions and the submission always get a
///   connection of their own and never queue behind an event.
/// - Each event has its own short time limit (`requestTimeout`), whatever `--timeout` says,
///   and carries its outbox id as `Idempotency-Key`, so a resent event is recorded once.
/// - `finish()` waits for what is still queued for at most `bound`; what is left stays in the
///   outbox for the next command (`deck mbti events` lists it).
///
/// `--trace` shows them like any request.
final class MbtiEvents: Sendable {
  /// How long one event may take before it is given up (until the next command).
  static let requestTimeout: Duration = .seconds(2)
  /// How long the command waits, in all, for events still queued when it ends.
  static let bound: Duration = .seconds(1)

  private let userID: String
  private let outbox: MbtiOutbox
  private let queue: AsyncStream<MbtiOutbox.Entry>.Continuation
  private let sender: Task<Void, Never>
  private let tally: Tally

  /// The outcomes so far, shared with the sending task.
  final class Tally: Sendable {
    let counts = Mutex<[Outcome: Int]>([:])
  }

  /// What became of one event's attempt.
  enum Outcome: Sendable, Hashable {
    /// The service confirmed it (201): it left the outbox.
    case sent
    /// The service refused it for good (400, 409, 422): it left the outbox unsent.
    case refused
    /// No confirmation: it stays in the outbox.
    case failed
  }

  /// How many of this command's attempts ended so.
  func count(_ outcome: Outcome) -> Int { tally.counts.withLock { $0[outcome] ?? 0 } }

  /// Starts sending what `outbox` holds from earlier commands.
  init(service: MbtiService, outbox: MbtiOutbox, userID: String) {
    self.userID = userID
    self.outbox = outbox
    let (stream, continuation) = AsyncStream.makeStream(of: MbtiOutbox.Entry.self)
    queue = continuation
    for entry in (try? outbox.load()) ?? [] { continuation.yield(entry) }
    let tally = Tally()
    self.tally = tally
    sender = Task {
      for await entry in stream {
        if Task.isCancelled { return }
        let outcome = await Self.deliver(entry, service: service, outbox: outbox)
        tally.counts.withLock { $0[outcome, default: 0] += 1 }
      }
    }
  }

  deinit {
    queue.finish()
    sender.cancel()
  }

  /// One attempt: confirmed (or refused for good) leaves the outbox; anything else stays.
  static func deliver(_ entry: MbtiOutbox.Entry, service: MbtiService, outbox: MbtiOutbox) async -> Outcome {
    let faultMark = SandboxFaultMark()
    do {
      let container = (try? OpenAPIObjectContainer(unvalidatedValue: entry.details)) ?? OpenAPIObjectContainer()
      _ = try await service.client(timeout: Self.requestTimeout, faultMark: faultMark).postEvent(
        headers: .init(Idempotency_hyphen_Key: entry.id),
        body: .json(
          .init(
            user_id: entry.userID, event_type: entry.type, details: .init(additionalProperties: container)))
      ).created
      try? outbox.remove(entry.id)
      return .sent
    } catch {
      let problem = ErrorPresenter.deckError(for: error)
      if case .rejected = problem.kind {
        // The service refused this event (400, 409, 422): sending it again cannot help.
        try? outbox.remove(entry.id)
        return .refused
      }
      try? outbox.failed(
        entry.id, reason: Task.isCancelled ? "the command ended first" : problem.message, fault: faultMark.rule)
      return .failed
    }
  }

  /// Keeps the event in the outbox, then queues it; it is sent after the ones before it.
  func send(_ type: String, _ details: [String: String] = [:]) {
    let entry = MbtiOutbox.Entry(
      id: UUID().uuidString.lowercased(), userID: userID, type: type, details: details, createdAt: Date(), attempts: 0)
    try? outbox.add(entry)
    queue.yield(entry)
  }

  /// Waits for the queued events for at most `bound`; what is left stays in the outbox.
  func finish(within bound: Duration = MbtiEvents.bound) async {
    queue.finish()
    let sender = sender
    await withTaskGroup(of: Void.self) { group in
      group.addTask { await sender.value }
      group.addTask {
        try? await Task.sleep(for: bound)
        sender.cancel()
      }
      await group.next()
      group.cancelAll()
    }
  }
}
