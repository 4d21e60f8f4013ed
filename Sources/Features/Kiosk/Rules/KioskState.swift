import FoundationEssentials

/// The kiosk's app state (kiosk-review-flow.md, "AppState" and the screens' view-model logic):
/// the current screen, the paired store and the session data, and every transition. Pure: the
/// actions return the ``KioskRequest`` to make, the driver performs it and reports back with
/// ``succeed(_:at:)`` or ``fail(_:at:)``; time comes in as arguments.
///
/// The one-shot `deck kiosk` commands, the terminal kiosk and the scripted runner all drive it,
/// so they follow the spec the same way.
public struct KioskState: Sendable, Equatable, Codable {
  public private(set) var currentScreen: KioskScreen
  /// The paired store (persisted).
  public private(set) var storePublicId: String?
  public private(set) var currentSession: KioskSession?
  public private(set) var currentOrder: KioskOrder?
  public private(set) var generatedReview: String?
  public private(set) var errorMessage: String?
  /// The stars picked on the rating screen; 0 until one is (Submit is disabled until then).
  public private(set) var selectedRating = 0
  /// When the handoff times out (30 s after approval).
  public private(set) var handoffEndsAt: Date?
  /// When the thank-you screen goes back to idle (3 s).
  public private(set) var thankYouEndsAt: Date?
  /// When idle polls next; nil means now.
  public private(set) var nextPollAt: Date?
  /// A session cancelled on this kiosk: polling does not bring it back (the backend still
  /// offers it as the store's newest PENDING session until a newer purchase comes).
  public private(set) var dismissedSessionId: String?
  /// The backend call under way, if any (not persisted). Results of any other call are ignored.
  public private(set) var pending: KioskRequest?
  /// The spec's timings, or shorter ones for tests and demos (not persisted).
  public var timings: KioskTimings = .standard

  /// App launch (`AppState.initialize()`): idle when a store is paired, else pairing.
  public init(storePublicId: String?, timings: KioskTimings = .standard) {
    self.storePublicId = storePublicId.flatMap(KioskRules.sanitizeStoreId)
    self.currentScreen = self.storePublicId == nil ? .pairing : .idle
    self.timings = timings
  }

  enum CodingKeys: String, CodingKey {
    case currentScreen, storePublicId, currentSession, currentOrder, generatedReview, errorMessage
    case selectedRating, handoffEndsAt, thankYouEndsAt, nextPollAt, dismissedSessionId
  }

  // MARK: Derived

  /// What the current screen accepts.
  public var acceptedActions: [KioskAction] { KioskRules.accepted(on: currentScreen) }

  public func accepts(_ action: KioskAction) -> Bool { acceptedActions.contains(action) }

  /// Whether idle is polling (it always is; the spinner shows while a poll is under way).
  public var isPolling: Bool { currentScreen == .idle }

  /// Whether a backend call is under way (buttons show a spinner, taps are ignored).
  public var isBusy: Bool { pending != nil }

  /// The handoff countdown: whole seconds left, rounded up (30, 29, … 0).
  public func remainingHandoffSeconds(at now: Date) -> Int {
    guard currentScreen == .handoff, let end = handoffEndsAt else { return 0 }
    return max(0, Int((end.timeIntervalSince(now)).rounded(.up)))
  }

  /// The handoff QR code's URL for this session.
  public func handoffURL(baseURL: String) -> String? {
    guard let session = currentSession else { return nil }
    return KioskRules.handoffURL(baseURL: baseURL, sessionPublicId: session.publicId)
  }

  /// When something is next due on its own: a poll, the handoff timeout, the thank-you's end.
  public var nextDeadline: Date? {
    switch currentScreen {
    case .idle: nextPollAt ?? .distantPast
    case .handoff: handoffEndsAt
    case .thankYou: thankYouEndsAt
    case .pairing, .rating, .consent: nil
    }
  }

  /// The state as loaded from disk, made consistent: a screen whose data is missing falls
  /// back to idle (or pairing without a store).
  public func normalized(timings: KioskTimings = .standard) -> KioskState {
    var state = self
    state.timings = timings
    state.pending = nil
    if let store = state.storePublicId.flatMap(KioskRules.sanitizeStoreId) {
      state.storePublicId = store
    } else {
      state.storePublicId = nil
      state.navigateToPairing()
      return state
    }
    let complete: Bool
    switch state.currentScreen {
    case .pairing, .idle: complete = true
    case .rating: complete = state.currentSession != nil
    case .consent: complete = state.currentSession != nil && state.generatedReview != nil
    case .handoff: complete = state.currentSession != nil && state.handoffEndsAt != nil
    case .thankYou: complete = state.thankYouEndsAt != nil
    }
    if state.currentScreen == .pairing {
      state.storePublicId = nil
    } else if !complete {
      state.resetToIdle()
    }
    return state
  }

  // MARK: Navigation methods (the spec's `appState.navigateTo…`)

  public mutating func navigateToPairing() {
    resetSessionData()
    pending = nil
    nextPollAt = nil
    currentScreen = .pairing
  }

  /// Idle polls at once on arrival, then every poll interval.
  public mutating func navigateToIdle() {
    nextPollAt = nil
    handoffEndsAt = nil
    thankYouEndsAt = nil
    currentScreen = .idle
  }

  public mutating func navigateToRating(session: KioskSession, order: KioskOrder?) {
    currentSession = session
    currentOrder = order
    generatedReview = nil
    selectedRating = 0
    errorMessage = nil
    currentScreen = .rating
  }

  public mutating func navigateToConsent(review: String) {
    generatedReview = review
    errorMessage = nil
    currentScreen = .consent
  }

  /// The handoff starts its timeout.
  public mutating func navigateToHandoff(at now: Date) {
    errorMessage = nil
    handoffEndsAt = now.addingTimeInterval(timings.handoffTimeout)
    currentScreen = .handoff
  }

  /// The thank-you starts its timer.
  public mutating func navigateToThankYou(at now: Date) {
    handoffEndsAt = nil
    thankYouEndsAt = now.addingTimeInterval(timings.thankYouDuration)
    currentScreen = .thankYou
  }

  /// `AppState.resetToIdle()`: clears the session data, keeps the store, goes to idle.
  public mutating func resetToIdle() {
    resetSessionData()
    pending = nil
    navigateToIdle()
  }

  /// `AppState.resetSessionData()`: clears the session, order, review and error; keeps the store id.
  public mutating func resetSessionData() {
    currentSession = nil
    currentOrder = nil
    generatedReview = nil
    errorMessage = nil
    selectedRating = 0
    handoffEndsAt = nil
    thankYouEndsAt = nil
  }

  // MARK: Pairing

  /// Pair Device: checks the input, then asks to validate the store with `next`.
  public mutating func pair(storeId: String) throws(KioskRuleError) -> KioskRequest {
    try require(.pair)
    guard let id = KioskRules.sanitizeStoreId(storeId) else {
      errorMessage = "Enter a store ID."
      throw .invalidInput("Enter a store ID.")
    }
    errorMessage = nil
    return begin(.validateStore(storeId: id))
  }

  // MARK: Idle

  /// Polls now (the idle screen's check, or `deck kiosk next`).
  public mutating func poll() throws(KioskRuleError) -> KioskRequest {
    try require(.next)
    guard let store = storePublicId else { throw .wrongScreen(action: .next, screen: .pairing) }
    return begin(.fetchNext(storeId: store))
  }

  /// The hidden settings' Re-pair (a long press on the logo): forgets the store, back to pairing.
  public mutating func rePair() throws(KioskRuleError) {
    guard currentScreen == .idle else { throw .wrongScreen(action: .unpair, screen: currentScreen) }
    storePublicId = nil
    dismissedSessionId = nil
    navigateToPairing()
  }

  // MARK: Rating

  /// Taps a star (1 to 5).
  public mutating func selectRating(_ rating: Int) throws(KioskRuleError) {
    try require(.rate, allowWhileBusy: true)
    guard KioskRules.ratings.contains(rating) else {
      throw .invalidInput("A rating is 1 to 5 stars, got \(rating).")
    }
    selectedRating = rating
  }

  /// Arrow keys on the star picker: one star more or fewer, within 1 to 5.
  public mutating func adjustRating(by delta: Int) throws(KioskRuleError) {
    try require(.rate, allowWhileBusy: true)
    selectedRating = min(KioskRules.ratings.upperBound, max(KioskRules.ratings.lowerBound, selectedRating + delta))
  }

  /// Submit Rating (disabled until a rating is picked).
  public mutating func submitRating() throws(KioskRuleError) -> KioskRequest {
    try require(.rate)
    guard KioskRules.ratings.contains(selectedRating) else { throw .invalidInput("Pick 1 to 5 stars first.") }
    guard let store = storePublicId, let session = currentSession else {
      throw .wrongScreen(action: .rate, screen: currentScreen)
    }
    errorMessage = nil
    return begin(.submitRating(storeId: store, sessionId: session.publicId, rating: selectedRating))
  }

  /// Cancel on the rating screen: back to idle; polling does not bring this session back.
  public mutating func cancel() throws(KioskRuleError) {
    try require(.cancel, allowWhileBusy: true)
    dismissedSessionId = currentSession?.publicId
    resetToIdle()
  }

  // MARK: Consent

  /// Yes, Continue.
  public mutating func approve() throws(KioskRuleError) -> KioskRequest {
    try require(.approve)
    return begin(.approve(storeId: storePublicId ?? "", sessionId: currentSession?.publicId ?? ""))
  }

  /// No Thanks.
  public mutating func decline() throws(KioskRuleError) -> KioskRequest {
    try require(.decline)
    return begin(.decline(storeId: storePublicId ?? "", sessionId: currentSession?.publicId ?? ""))
  }

  // MARK: Handoff

  /// Done (also what the timeout does).
  public mutating func done() throws(KioskRuleError) -> KioskRequest {
    try require(.done)
    return begin(.markDone(sessionId: currentSession?.publicId ?? ""))
  }

  // MARK: Thank you

  /// The thank-you's 3 seconds are over (one-shot commands end the screen at once).
  public mutating func thankYouElapsed() {
    guard currentScreen == .thankYou else { return }
    resetToIdle()
  }

  // MARK: Time

  /// What is due at `now`: the idle poll, the handoff timeout (which marks the session done)
  /// or the end of the thank-you (back to idle, returns nil). Nothing while a call is under way.
  public mutating func tick(at now: Date) -> KioskRequest? {
    guard pending == nil else { return nil }
    switch currentScreen {
    case .idle:
      guard let store = storePublicId else { return nil }
      if let due = nextPollAt, now < due { return nil }
      return begin(.fetchNext(storeId: store))
    case .handoff:
      guard let end = handoffEndsAt, now >= end, let session = currentSession else { return nil }
      return begin(.markDone(sessionId: session.publicId))
    case .thankYou:
      if let end = thankYouEndsAt, now >= end { resetToIdle() }
      return nil
    case .pairing, .rating, .consent:
      return nil
    }
  }

  // MARK: Results

  /// The backend answered the pending call. Returns false (and changes nothing) when no call
  /// of that kind is pending, e.g. a poll that finishes after the user re-paired.
  @discardableResult
  public mutating func succeed(_ response: KioskResponse, at now: Date) -> Bool {
    guard let request = pending else { return false }
    switch (request, response) {
    case (.validateStore(let store), .nextSession):
      pending = nil
      storePublicId = store
      dismissedSessionId = nil
      resetSessionData()
      navigateToIdle()
    case (.fetchNext, .nextSession(let session, let order)):
      pending = nil
      nextPollAt = now.addingTimeInterval(timings.pollInterval)
      errorMessage = nil
      if let session, session.status == .pending, session.publicId != dismissedSessionId {
        navigateToRating(session: session, order: order)
      }
    case (.submitRating, .review(let text)):
      pending = nil
      currentSession?.status = .rated
      navigateToConsent(review: text)
    case (.approve, .ok):
      pending = nil
      currentSession?.status = .approved
      navigateToHandoff(at: now)
    case (.decline, .ok):
      pending = nil
      currentSession?.status = .declined
      navigateToThankYou(at: now)
    case (.markDone, .ok):
      pending = nil
      currentSession?.status = .postedIntent
      errorMessage = nil
      navigateToThankYou(at: now)
    default:
      return false
    }
    return true
  }

  /// The pending call failed. The screen stays so the user can retry (pairing, rating,
  /// consent), idle keeps polling, and a failed Done still moves on to thank-you.
  @discardableResult
  public mutating func fail(_ message: String, at now: Date) -> Bool {
    guard let request = pending else { return false }
    pending = nil
    errorMessage = message
    switch request {
    case .fetchNext:
      nextPollAt = now.addingTimeInterval(timings.pollInterval)
    case .markDone:
      navigateToThankYou(at: now)
    case .validateStore, .submitRating, .approve, .decline:
      break
    }
    return true
  }

  // MARK: Private

  private mutating func begin(_ request: KioskRequest) -> KioskRequest {
    pending = request
    return request
  }

  private func require(_ action: KioskAction, allowWhileBusy: Bool = false) throws(KioskRuleError) {
    guard accepts(action) else { throw .wrongScreen(action: action, screen: currentScreen) }
    if !allowWhileBusy, pending != nil { throw .busy }
  }
}
