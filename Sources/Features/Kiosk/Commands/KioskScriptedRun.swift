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

  func run() async throws {
    var state = KioskState(storePublicId: nil, timings: timings)
    let pair = try KioskController.act(&state) { state throws(KioskRuleError) in try state.pair(storeId: storeId) }
    if var failure = await service.run(pair, on: &state) {
      failure.message = "Cannot run the kiosk for store \(storeId): \(failure.message)"
      throw failure
    }
    let spinner = Spinner(output: context.output)
    defer { spinner.stop() }
    let reports = context.output.records()
    var waitingSince = Date()
    var tracker: Tracker?
    var processed = 0
    var failures: [DeckError] = []
    var lastWarning: String?

    func finish(_ tracker: inout Tracker?, error: DeckError?) throws {
      guard var done = tracker else { return }
      done.report.status = state.currentSession?.status.rawValue ?? done.report.status
      done.report.generatedReviewText = state.generatedReview ?? done.report.generatedReviewText
      done.report.timings.totalMs = Self.milliseconds(since: done.foundAt)
      if let error {
        done.report.error = error.message
        failures.append(error)
      }
      try emit(done.report, to: reports)
      processed += 1
      tracker = nil
      waitingSince = Date()
    }

    while sessions.map({ processed < $0 }) ?? true {
      try Task.checkCancellation()
      // The session is over once the kiosk says thank you (a zero thank-you ends at once).
      if state.currentScreen == .thankYou, tracker != nil {
        try finish(&tracker, error: nil)  // a failed done was counted when it happened
        continue
      }
      let now = Date()
      // The handoff is over: the customer's Done, retried like every tap while the backend is
      // unavailable (a failed Done would otherwise leave the session APPROVED).
      if state.currentScreen == .handoff, tracker != nil, let end = state.handoffEndsAt, now >= end {
        let failure = await attempt(&state) { state throws(KioskRuleError) in try state.done() }
        if let started = tracker?.handoffStartedAt {
          tracker?.report.timings.handoffMs = Self.milliseconds(since: started)
        }
        if let failure {
          tracker?.report.error = "Marking the session done failed: \(failure.message)"
          failures.append(failure)
        }
        continue
      }
      if let request = state.tick(at: now) {
        let failure = await service.run(request, on: &state)
        switch request {
        case .fetchNext:
          if let failure {
            spinner.stop()
            if failure.message != lastWarning { context.output.error("\(failure.message) (polling goes on)") }
            lastWarning = failure.message
          } else if state.currentScreen == .rating, let session = state.currentSession {
            spinner.stop()
            lastWarning = nil
            tracker = Tracker(
              report: Report(
                publicId: session.publicId, storePublicId: storeId, status: session.status.rawValue,
                starRating: rating, totalAmount: state.currentOrder?.totalAmount,
                items: state.currentOrder?.items.map(KioskRules.describe) ?? [], timings: Timings()),
              foundAt: Date())
            tracker?.report.timings.waitMs = Self.milliseconds(since: waitingSince)
          }
        case .markDone:
          if let started = tracker?.handoffStartedAt {
            tracker?.report.timings.handoffMs = Self.milliseconds(since: started)
          }
          if let failure {
            tracker?.report.error = "Marking the session done failed: \(failure.message)"
            failures.append(failure)
          }
        default:
          break
        }
        continue
      }
      switch state.currentScreen {
      case .rating:
        let started = Date()
        let failure = await attempt(&state) { state throws(KioskRuleError) in
          try state.selectRating(rating)
          return try state.submitRating()
        }
        tracker?.report.timings.ratingMs = Self.milliseconds(since: started)
        if let failure {
          try finish(&tracker, error: failure)
          try? state.cancel()
        }
      case .consent:
        let started = Date()
        let failure = await attempt(&state) { state throws(KioskRuleError) in
          try approve ? state.approve() : state.decline()
        }
        tracker?.report.timings.consentMs = Self.milliseconds(since: started)
        if let failure {
          try finish(&tracker, error: failure)
          state.resetToIdle()
        } else if state.currentScreen == .handoff {
          tracker?.handoffStartedAt = Date()
          if let url = state.handoffURL(baseURL: service.baseURL) {
            tracker?.report.handoffURL = url
            if let qrPNG { try QRCode(url).writePNG(to: qrPNG) }
          }
        }
      case .pairing:
        throw DeckError.failure("The kiosk lost its pairing.")
      default:
        if state.currentScreen == .idle, tracker == nil {
          spinner.start("Waiting for a purchase at \(storeId)… (\(processed) done)")
        }
        let due = state.nextDeadline ?? now.addingTimeInterval(timings.pollInterval)
        let wait = min(max(due.timeIntervalSince(Date()), 0.005), 1)
        try await Task.sleep(for: .milliseconds(Int(wait * 1000)))
      }
    }
    spinner.stop()
    let outcome = approve ? "POSTED_INTENT" : "DECLINED"
    if failures.isEmpty {
      if context.output.isHuman {
        context.output.info("Processed \(processed) session\(processed == 1 ? "" : "s") at \(storeId), all \(outcome).")
      }
      return
    }
    var first = failures[0]
    first.message =
      "\(failures.count) of \(processed) session\(processed == 1 ? "" : "s") did not end \(outcome); the first: \(first.message)"
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
