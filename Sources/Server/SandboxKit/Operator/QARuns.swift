import DeckSupport
import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// The QA run's scope of the request being handled (its `Deck-QA-Run` header: ``QARunScope``),
/// nil outside a run. The fault rules and delay a run adds are kept to its scope's requests
/// (``FaultRuleSet/choose(method:path:scope:random:)``, ``FaultSettings/delay(in:)``), and
/// `fault list|clear` and `delay` in a run see its own.
enum RequestScope {
  @TaskLocal static var current: String?

  static let header = HTTPField.Name(QARunScope.header)!
}

/// Reads every request's `Deck-QA-Run` header into ``RequestScope/current`` and notes the run
/// in ``QARuns`` (for `sandbox status`). A header that is not a scope is answered 400: a rule
/// it added would never match again.
struct QARunScopeMiddleware: RouterMiddleware {
  let runs: QARuns

  func handle(
    _ request: Request, context: SandboxRequestContext,
    next: (Request, SandboxRequestContext) async throws -> Response
  ) async throws -> Response {
    guard let value = request.headers[RequestScope.header] else { return try await next(request, context) }
    guard QARunScope.isValid(value) else {
      return Response.json(
        .simple(
          .badRequest,
          "\(QARunScope.header) must be 1 to \(QARunScope.maximumLength) letters, digits, '.', '_' or '-', as RUN or RUN/SCENARIO (deck qa run sends it)."
        ))
    }
    runs.saw(value)
    return try await RequestScope.$current.withValue(value) { try await next(request, context) }
  }
}

/// The QA runs this server has served lately: a run is in progress while its requests keep
/// coming (the last within ``window``). Each instance knows the requests it served.
package final class QARuns: Sendable {
  /// How long after its last request a run still counts as in progress.
  static let window: TimeInterval = 60
  /// The most runs remembered (the least recent go first).
  static let maximum = 100

  struct Run: Sendable, Equatable {
    var id: String
    var scenarios: Set<String>
    var requests: Int
    var startedAt: Date
    var lastSeenAt: Date
  }

  private let runs = Mutex<[String: Run]>([:])

  /// Notes a request of `scope` (``QARunScope``) at `now`.
  func saw(_ scope: String, now: Date = Date()) {
    let id = QARunScope.run(of: scope)
    runs.withLock { runs in
      var run = runs[id] ?? Run(id: id, scenarios: [], requests: 0, startedAt: now, lastSeenAt: now)
      run.scenarios.insert(scope)
      run.requests += 1
      run.lastSeenAt = max(run.lastSeenAt, now)
      runs[id] = run
      if runs.count > Self.maximum, let oldest = runs.values.min(by: { $0.lastSeenAt < $1.lastSeenAt }) {
        runs[oldest.id] = nil
      }
    }
  }

  /// The runs in progress at `now`, the earliest started first; the others are forgotten.
  func inProgress(now: Date = Date()) -> [Run] {
    runs.withLock { runs in
      runs = runs.filter { now.timeIntervalSince($0.value.lastSeenAt) <= Self.window }
      return runs.values.sorted { ($0.startedAt, $0.id) < ($1.startedAt, $1.id) }
    }
  }
}
