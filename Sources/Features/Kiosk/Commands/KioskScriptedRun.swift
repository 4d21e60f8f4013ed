import DeckCore
import DeckNetworking
import DeckSupport
import FoundationEssentials
import KioskRules

/// `deck kiosk run --sessions N --rating R --approve|--decline`: the kiosk with a scripted
/// customer. The same state machine and timings as the terminal kiosk (poll, handoff timeout,
/// thank-you), no prompts; one line (or JSON object) per session on stdout.
struct ScriptedKiosk {
  let context: DeckContext
  let service: KioskService
  let storeId: String
  let sessions: Int?
  let rating: Int
  let approve: Bool
  let timings: KioskTimings
  let qrPNG: String?

  /// What is printed for each session.
  struct Report: Encodable {
    var publicId: String
    var storePublicId: String
    /// The session's status as the kiosk last saw it succeed: POSTED_INTENT or DECLINED when
    /// all went well.
    var status: String
    var starRating: Int
    @ExplicitNull var totalAmount: Int?
    var items: [String]
    @ExplicitNull var generatedReviewText: String? = nil
    @ExplicitNull var handoffURL: String? = nil
    @ExplicitNull var error: String? = nil
    var timings: Timings
  }

  /// Milliseconds: waiting on idle for the purchase, the rating and consent calls, the
  /// handoff (until done), and from the session's arrival to the thank-you.
  struct Timings: Encodable {
    var waitMs = 0
    var ratingMs = 0
    var consentMs = 0
    var handoffMs = 0
    var totalMs = 0
  }

  /// The session in progress.
  private struct Tracker {
    var report: Report
    var foundAt: Date
    var handoffStartedAt: Date?
  }

  /// The run so far: the kiosk's state, the session in progress, and the sessions done.
  private struct Progress {
    var state: KioskState
    var tracker: Tracker?
    var waitingSince = Date()
    var processed = 0
    var failures: [DeckError] = []
    var lastWarning: String?

    /// The handoff is over (the customer's Done): its time, and the failure of marking it done.
    mutating func handoffEnded(failure: DeckError?) {
      if let started = tracker?.handoffStartedAt {
        tracker?.report.timings.handoffMs = ScriptedKiosk.milliseconds(since: started)
      }
      if let failure {
        tracker?.report.error = "Marking the session done failed: \(failure.message)"
        failures.append(failure)
      }
    }
  }

  func run() async throws {
    var progress = Progress(state: try await pairedState())
    let spinner = Spinner(output: context.output)
    defer { spinner.stop() }
    let reports = context.output.records()
    while sessions.map({ progress.processed < $0 }) ?? true {
      try Task.checkCancellation()
      try await step(&progress, spinner: spinner, reports: reports)
    }
    spinner.stop()
    try conclude(progress)
  }

  /// The kiosk paired with the store, or the error that says why it cannot run.
  private func pairedState() async throws -> KioskState {
    var state = KioskState(storePublicId: nil, timings: timings)
    let pair = try KioskController.act(&state) { state throws(KioskRuleError) in try state.pair(storeId: storeId) }
    if var failure = await service.run(pair, on: &state) {
      failure.message = "Cannot run the kiosk for store \(storeId): \(failure.message)"
      throw failure
    }
    return state
  }

  /// One turn of the loop: the session's end, the handoff's end, a due request, or the
  /// customer's action on the screen shown.
  private func step(_ progress: inout Progress, spinner: Spinner, reports: OutputRecords) async throws {
    // The session is over once the kiosk says thank you (a zero thank-you ends at once).
    if progress.state.currentScreen == .thankYou, progress.tracker != nil {
      try finish(&progress, error: nil, to: reports)  // a failed done was counted when it happened
      return
    }
    let now = Date()
    // The handoff is over: the customer's Done, retried like every tap while the backend is
    // unavailable (a failed Done would otherwise leave the session APPROVED).
    if progress.state.currentScreen == .handoff, progress.tracker != nil, let end = progress.state.handoffEndsAt,
      now >= end
    {
      let failure = await attempt(&progress.state) { state throws(KioskRuleError) in try state.done() }
      progress.handoffEnded(failure: failure)
      return
    }
    if let request = progress.state.tick(at: now) {
      let failure = await service.run(request, on: &progress.state)
      switch request {
      case .fetchNext: polled(&progress, failure: failure, spinner: spinner)
      case .markDone: progress.handoffEnded(failure: failure)
      default: break
      }
      return
    }
    try await act(&progress, at: now, spinner: spinner, reports: reports)
  }

  /// After a poll: a warning when it failed (once per message), else the session found.
  private func polled(_ progress: inout Progress, failure: DeckError?, spinner: Spinner) {
    if let failure {
      spinner.stop()
      if failure.message != progress.lastWarning { context.output.error("\(failure.message) (polling goes on)") }
      progress.lastWarning = failure.message
    } else if progress.state.currentScreen == .rating, let session = progress.state.currentSession {
      spinner.stop()
      progress.lastWarning = nil
      let order = progress.state.currentOrder
      progress.tracker = Tracker(
        report: Report(
          publicId: session.publicId, storePublicId: storeId, status: session.status.rawValue,
          starRating: rating, totalAmount: order?.totalAmount,
          items: order?.items.map(KioskRules.describe) ?? [], timings: Timings()),
        foundAt: Date())
      progress.tracker?.report.timings.waitMs = Self.milliseconds(since: progress.waitingSince)
    }
  }

  /// The customer's action on the screen shown: rate, approve or decline, or wait.
  private func act(_ progress: inout Progress, at now: Date, spinner: Spinner, reports: OutputRecords) async throws {
    switch progress.state.currentScreen {
    case .rating:
      let started = Date()
      let failure = await attempt(&progress.state) { state throws(KioskRuleError) in
        try state.selectRating(rating)
        return try state.submitRating()
      }
      progress.tracker?.report.timings.ratingMs = Self.milliseconds(since: started)
      if let failure {
        try finish(&progress, error: failure, to: reports)
        try? progress.state.cancel()
      }
    case .consent:
      try await consent(&progress, reports: reports)
    case .pairing:
      throw DeckError.failure("The kiosk lost its pairing.")
    default:
      if progress.state.currentScreen == .idle, progress.tracker == nil {
        spinner.start("Waiting for a purchase at \(storeId)… (\(progress.processed) done)")
      }
      let due = progress.state.nextDeadline ?? now.addingTimeInterval(timings.pollInterval)
      let wait = min(max(due.timeIntervalSince(Date()), 0.005), 1)
      try await Task.sleep(for: .milliseconds(Int(wait * 1000)))
    }
  }

  /// The customer approves or declines; an approval starts the handoff (its URL, its QR code).
  private func consent(_ progress: inout Progress, reports: OutputRecords) async throws {
    let started = Date()
    let failure = await attempt(&progress.state) { state throws(KioskRuleError) in
      try approve ? state.approve() : state.decline()
    }
    progress.tracker?.report.timings.consentMs = Self.milliseconds(since: started)
    if let failure {
      try finish(&progress, error: failure, to: reports)
      progress.state.resetToIdle()
    } else if progress.state.currentScreen == .handoff {
      progress.tracker?.handoffStartedAt = Date()
      if let url = progress.state.handoffURL(baseURL: service.baseURL) {
        progress.tracker?.report.handoffURL = url
        if let qrPNG { try QRCode(url).writePNG(to: qrPNG) }
      }
    }
  }

  /// Ends the session in progress: its report printed, with the error that ended it.
  private func finish(_ progress: inout Progress, error: DeckError?, to reports: OutputRecords) throws {
    guard var done = progress.tracker else { return }
    done.report.status = progress.state.currentSession?.status.rawValue ?? done.report.status
    done.report.generatedReviewText = progress.state.generatedReview ?? done.report.generatedReviewText
    done.report.timings.totalMs = Self.milliseconds(since: done.foundAt)
    if let error {
      done.report.error = error.message
      progress.failures.append(error)
    }
    try emit(done.report, to: reports)
    progress.processed += 1
    progress.tracker = nil
    progress.waitingSince = Date()
  }

  /// The summary: every session ended as asked, or the first failure, with how many failed.
  private func conclude(_ progress: Progress) throws {
    let processed = progress.processed
    let outcome = approve ? "POSTED_INTENT" : "DECLINED"
    guard var first = progress.failures.first else {
      if context.output.isHuman {
        context.output.info("Processed \(processed) session\(processed == 1 ? "" : "s") at \(storeId), all \(outcome).")
      }
      return
    }
    first.message =
      "\(progress.failures.count) of \(processed) session\(processed == 1 ? "" : "s") did not end \(outcome); the first: \(first.message)"
    throw first
  }

  /// How the scripted customer taps again while the backend is unavailable: deck's retry
  /// policy, starting at the poll interval and backing off to a few seconds, for as long as
  /// the outage lasts. (Each tap is a new call by the customer, as on the iOS kiosk; the HTTP
  /// layer itself never retries these POSTs.)
  var tapAgain: RetryPolicy {
    RetryPolicy(
      maxAttempts: .max, baseDelay: .seconds(timings.pollInterval), maxDelay: .seconds(max(timings.pollInterval, 2)),
      maxRetryAfter: .seconds(30))
  }

  /// Makes a call, tapping again for as long as the backend is unavailable (the spec's "tap
  /// again", by a patient customer), so that an outage delays the session rather than losing
  /// it. Returns the failure that is not an outage.
  private func attempt(
    _ state: inout KioskState, _ action: (inout KioskState) throws(KioskRuleError) -> KioskRequest
  ) async -> DeckError? {
    let request: KioskRequest
    do {
      request = try KioskController.act(&state, action)
    } catch {
      return ErrorPresenter.deckError(for: error)
    }
    // The call stays pending in the state machine while it is tried again, so the machine
    // sees one outcome (a failed Done would otherwise move on and leave the session APPROVED).
    var warned: String?
    var taps = 0
    while true {
      do {
        state.succeed(try await service.perform(request), at: Date())
        return nil
      } catch {
        let failure = ErrorPresenter.deckError(for: error)
        guard case .unavailable = failure.kind, !Task.isCancelled else {
          state.fail(failure.message, at: Date())
          return failure
        }
        if failure.message != warned {
          context.output.error("\(failure.message) (trying again until it answers)")
          warned = failure.message
        }
        taps += 1
        let wait = tapAgain.delay(afterAttempt: taps, retryAfter: nil, jitter: .random(in: 0..<1)) ?? tapAgain.maxDelay
        try? await Task.sleep(for: wait)
      }
    }
  }

  /// One line per session for a person; else one record of the stream (a JSON line, …).
  private func emit(_ report: Report, to reports: OutputRecords) throws {
    try reports.emit(report) {
      let seconds = NumberText.fixed(Double(report.timings.totalMs) / 1000, digits: 1) + "s"
      let total = report.totalAmount.map { KioskRules.formatAmount($0) } ?? "-"
      context.output.line(
        "\(report.publicId)  \(report.status)  \(KioskRules.stars(report.starRating))  \(total)  \(report.items.joined(separator: ", "))  (\(seconds))"
      )
      if let error = report.error { context.output.error("\(report.publicId): \(error)") }
    }
  }

  static func milliseconds(since start: Date) -> Int {
    max(0, Int((Date().timeIntervalSince(start) * 1000).rounded()))
  }
}
