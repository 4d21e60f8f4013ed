import Foundation
import KioskRules
import Testing

/// kiosk-review-flow.md: every path of "Complete Flow Summary", every row of "Error Handling
/// Paths", the timing table and the data lifecycle.
@Suite("Kiosk state machine")
struct KioskStateTests {
  let t0 = Date(timeIntervalSince1970: 1_000_000)
  let session = KioskSession(publicId: "sess_xyz789", status: .pending)
  let order = KioskOrder(
    publicId: "ord_1", totalAmount: 4599,
    items: [KioskOrderItem(name: "Handmade Scarf", amount: 3800), KioskOrderItem(name: "Candle", amount: 799)])

  func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

  /// A kiosk paired with store_abc123, on idle.
  func paired(_ timings: KioskTimings = .standard) -> KioskState {
    KioskState(storePublicId: "store_abc123", timings: timings)
  }

  /// A kiosk on the rating screen with `session`.
  func onRating() throws -> KioskState {
    var state = paired()
    let due = state.tick(at: t0)
    #expect(due == .fetchNext(storeId: "store_abc123"))
    let applied = state.succeed(.nextSession(session, order), at: t0)
    #expect(applied)
    #expect(state.currentScreen == .rating)
    return state
  }

  func onConsent(rating: Int = 4) throws -> KioskState {
    var state = try onRating()
    try state.selectRating(rating)
    _ = try state.submitRating()
    state.succeed(.review("Great experience! The Handmade Scarf is beautiful."), at: at(1))
    #expect(state.currentScreen == .consent)
    return state
  }

  func onHandoff() throws -> KioskState {
    var state = try onConsent()
    _ = try state.approve()
    state.succeed(.ok, at: at(2))
    #expect(state.currentScreen == .handoff)
    return state
  }

  // MARK: App launch

  @Test func launchWithoutAStoreShowsPairing() {
    let state = KioskState(storePublicId: nil)
    #expect(state.currentScreen == .pairing)
    #expect(state.storePublicId == nil)
  }

  @Test func launchWithAStoreShowsIdle() {
    let state = KioskState(storePublicId: "store_abc123")
    #expect(state.currentScreen == .idle)
    #expect(state.storePublicId == "store_abc123")
    #expect(state.isPolling)
  }

  // MARK: Happy path: PAIRING → IDLE → RATING → CONSENT → HANDOFF → THANK YOU → IDLE

  @Test func happyPath() throws {
    var state = KioskState(storePublicId: nil)
    // Pairing validates the store with `next`, then saves it and goes to idle.
    var request = try state.pair(storeId: "  store_abc123 ")
    #expect(request == .validateStore(storeId: "store_abc123"))
    #expect(state.storePublicId == nil, "nothing is saved before the store is validated")
    let applied = state.succeed(.nextSession(nil, nil), at: t0)
    #expect(applied)
    #expect(state.currentScreen == .idle)
    #expect(state.storePublicId == "store_abc123")

    // Idle polls at once, then every 7 s until a PENDING session appears.
    var due = state.tick(at: t0)
    #expect(due == .fetchNext(storeId: "store_abc123"))
    state.succeed(.nextSession(nil, nil), at: t0)
    #expect(state.currentScreen == .idle)
    due = state.tick(at: at(6.9))
    #expect(due == nil)
    due = state.tick(at: at(7))
    #expect(due == .fetchNext(storeId: "store_abc123"))
    state.succeed(.nextSession(session, order), at: at(7))
    #expect(state.currentScreen == .rating)
    #expect(state.currentSession == session)
    #expect(state.currentOrder == order)
    #expect(state.currentOrder?.formattedTotal == "$45.99")
    due = state.tick(at: at(20))
    #expect(due == nil, "no polling away from idle")

    // Rating: Submit is disabled until a star is picked.
    #expect(throws: KioskRuleError.invalidInput("Pick 1 to 5 stars first.")) { try state.submitRating() }
    try state.selectRating(4)
    request = try state.submitRating()
    #expect(request == .submitRating(storeId: "store_abc123", sessionId: "sess_xyz789", rating: 4))
    state.succeed(.review("Great experience!"), at: at(8))
    #expect(state.currentScreen == .consent)
    #expect(state.generatedReview == "Great experience!")
    #expect(state.currentSession?.status == .rated)

    // Consent: approve goes to the handoff, whose QR code points at /r/{sessionPublicId}.
    request = try state.approve()
    #expect(request == .approve(storeId: "store_abc123", sessionId: "sess_xyz789"))
    state.succeed(.ok, at: at(9))
    #expect(state.currentScreen == .handoff)
    #expect(state.handoffURL(baseURL: "http://localhost:3000/") == "http://localhost:3000/r/sess_xyz789")
    #expect(state.remainingHandoffSeconds(at: at(9)) == 30)

    // Handoff: Done marks the session done, then thank-you.
    request = try state.done()
    #expect(request == .markDone(sessionId: "sess_xyz789"))
    state.succeed(.ok, at: at(12))
    #expect(state.currentScreen == .thankYou)
    #expect(state.currentSession?.status == .postedIntent)

    // Thank you: back to idle after 3 s, session data cleared, store kept.
    due = state.tick(at: at(14.9))
    #expect(due == nil)
    #expect(state.currentScreen == .thankYou)
    due = state.tick(at: at(15))
    #expect(due == nil)
    #expect(state.currentScreen == .idle)
    #expect(state.currentSession == nil && state.currentOrder == nil && state.generatedReview == nil)
    #expect(state.storePublicId == "store_abc123")
    due = state.tick(at: at(15))
    #expect(due == .fetchNext(storeId: "store_abc123"), "idle polls at once on arrival")
  }

  // MARK: Decline path: … CONSENT → THANK YOU → IDLE

  @Test func declinePath() throws {
    var state = try onConsent(rating: 2)
    let request = try state.decline()
    #expect(request == .decline(storeId: "store_abc123", sessionId: "sess_xyz789"))
    state.succeed(.ok, at: at(5))
    #expect(state.currentScreen == .thankYou)
    #expect(state.currentSession?.status == .declined)
    #expect(state.handoffEndsAt == nil, "no handoff after a decline")
    _ = state.tick(at: at(8))
    #expect(state.currentScreen == .idle)
    #expect(state.generatedReview == nil)
  }

  // MARK: Cancel path: … RATING → IDLE

  @Test func cancelPath() throws {
    var state = try onRating()
    try state.selectRating(3)
    try state.cancel()
    #expect(state.currentScreen == .idle)
    #expect(state.currentSession == nil && state.currentOrder == nil && state.selectedRating == 0)
    #expect(state.storePublicId == "store_abc123")
    // The backend still offers the cancelled session: polling does not go back to it ...
    let due = state.tick(at: at(1))
    #expect(due == .fetchNext(storeId: "store_abc123"))
    state.succeed(.nextSession(session, order), at: at(1))
    #expect(state.currentScreen == .idle)
    // ... but a newer purchase is shown.
    _ = state.tick(at: at(8))
    let newer = KioskSession(publicId: "sess_newer", status: .pending)
    state.succeed(.nextSession(newer, order), at: at(8))
    #expect(state.currentScreen == .rating)
    #expect(state.currentSession == newer)
  }

  @Test func cancelWhileARatingIsUnderWayIgnoresItsAnswer() throws {
    var state = try onRating()
    try state.selectRating(5)
    _ = try state.submitRating()
    try state.cancel()
    let applied = state.succeed(.review("late"), at: at(1))
    #expect(!applied)
    #expect(state.currentScreen == .idle)
    #expect(state.generatedReview == nil)
  }

  // MARK: Re-pair path: IDLE → (long press) → PAIRING → IDLE

  @Test func rePairPath() throws {
    var state = paired()
    try state.rePair()
    #expect(state.currentScreen == .pairing)
    #expect(state.storePublicId == nil, "re-pair clears storePublicId")
    _ = try state.pair(storeId: "store_other")
    state.succeed(.nextSession(nil, nil), at: t0)
    #expect(state.currentScreen == .idle)
    #expect(state.storePublicId == "store_other")
  }

  @Test func rePairOnlyFromIdle() throws {
    var state = try onRating()
    #expect(throws: KioskRuleError.wrongScreen(action: .unpair, screen: .rating)) { try state.rePair() }
  }

  @Test func aPollThatAnswersAfterRePairIsIgnored() throws {
    var state = paired()
    _ = state.tick(at: t0)
    try state.rePair()
    let applied = state.succeed(.nextSession(session, order), at: at(1))
    #expect(!applied)
    #expect(state.currentScreen == .pairing)
    #expect(state.currentSession == nil)
  }

  // MARK: Handoff timeout and countdown

  @Test func handoffTimesOutAfter30SecondsAndMarksDone() throws {
    var state = try onHandoff()  // approved at t0 + 2
    #expect(state.remainingHandoffSeconds(at: at(2)) == 30)
    #expect(state.remainingHandoffSeconds(at: at(5)) == 27)
    var due = state.tick(at: at(31.9))
    #expect(due == nil)
    due = state.tick(at: at(32))
    #expect(due == .markDone(sessionId: "sess_xyz789"))
    #expect(state.remainingHandoffSeconds(at: at(32)) == 0)
    #expect(throws: KioskRuleError.busy) { try state.done() }
    state.succeed(.ok, at: at(32.2))
    #expect(state.currentScreen == .thankYou)
  }

  @Test func timingsAreConfigurable() throws {
    let fast = KioskTimings(pollInterval: 0.5, handoffTimeout: 2, thankYouDuration: 0.25)
    var state = paired(fast)
    _ = state.tick(at: t0)
    state.succeed(.nextSession(nil, nil), at: t0)
    var due = state.tick(at: at(0.49))
    #expect(due == nil)
    due = state.tick(at: at(0.5))
    #expect(due != nil)
    state.succeed(.nextSession(session, order), at: at(0.5))
    try state.selectRating(5)
    _ = try state.submitRating()
    state.succeed(.review("Loved it"), at: at(1))
    _ = try state.approve()
    state.succeed(.ok, at: at(1))
    #expect(state.handoffEndsAt == at(3))
    due = state.tick(at: at(3))
    #expect(due == .markDone(sessionId: "sess_xyz789"))
    state.succeed(.ok, at: at(3))
    #expect(state.thankYouEndsAt == at(3.25))
    _ = state.tick(at: at(3.25))
    #expect(state.currentScreen == .idle)
  }

  @Test func theSpecsTimings() {
    #expect(KioskTimings.standard == KioskTimings(pollInterval: 7, handoffTimeout: 30, thankYouDuration: 3))
  }

  // MARK: Data lifecycle

  @Test func resetClearsSessionDataAndKeepsTheStore() throws {
    var state = try onConsent()
    _ = try state.approve()
    state.fail("oops", at: at(3))
    #expect(state.errorMessage != nil)
    state.resetToIdle()
    #expect(state.currentScreen == .idle)
    #expect(state.currentSession == nil)
    #expect(state.currentOrder == nil)
    #expect(state.generatedReview == nil)
    #expect(state.errorMessage == nil)
    #expect(state.storePublicId == "store_abc123")
  }

  @Test func navigationMethodsSetTheScreen() {
    var state = paired()
    state.navigateToRating(session: session, order: order)
    #expect(state.currentScreen == .rating)
    state.navigateToConsent(review: "Nice")
    #expect(state.currentScreen == .consent)
    state.navigateToHandoff(at: t0)
    #expect(state.currentScreen == .handoff && state.handoffEndsAt == at(30))
    state.navigateToThankYou(at: t0)
    #expect(state.currentScreen == .thankYou && state.thankYouEndsAt == at(3))
    state.navigateToIdle()
    #expect(state.currentScreen == .idle)
    state.navigateToPairing()
    #expect(state.currentScreen == .pairing)
  }

  @Test func onlyPendingSessionsAreRated() {
    var state = paired()
    _ = state.tick(at: t0)
    state.succeed(.nextSession(KioskSession(publicId: "sess_old", status: .rated), order), at: t0)
    #expect(state.currentScreen == .idle)
  }

  // MARK: Actions that do not fit the screen

  @Test func wrongScreenSaysWhereTheKioskIsAndWhatItAccepts() throws {
    var idle = paired()
    #expect(throws: KioskRuleError.wrongScreen(action: .approve, screen: .idle)) { try idle.approve() }
    #expect(
      KioskRuleError.wrongScreen(action: .approve, screen: .idle).description
        == "Cannot approve: the kiosk is on the idle screen, which accepts: next, unpair.")
    #expect(
      KioskRuleError.wrongScreen(action: .next, screen: .pairing).description
        == "Cannot look for the next session: the kiosk is not paired (pairing screen), which accepts: pair.")
    var rating = try onRating()
    #expect(throws: KioskRuleError.wrongScreen(action: .done, screen: .rating)) { try rating.done() }
    #expect(throws: KioskRuleError.invalidInput("A rating is 1 to 5 stars, got 6.")) { try rating.selectRating(6) }
    #expect(throws: KioskRuleError.invalidInput("A rating is 1 to 5 stars, got 0.")) { try rating.selectRating(0) }
    var consent = try onConsent()
    #expect(throws: KioskRuleError.wrongScreen(action: .cancel, screen: .consent)) { try consent.cancel() }
    var pairing = KioskState(storePublicId: nil)
    #expect(throws: KioskRuleError.wrongScreen(action: .next, screen: .pairing)) { try pairing.poll() }
    #expect(KioskRules.accepted(on: .thankYou).isEmpty)
  }

  @Test func oneCallAtATime() throws {
    var state = try onConsent()
    _ = try state.approve()
    #expect(throws: KioskRuleError.busy) { try state.decline() }
    var applied = state.succeed(.review("wrong kind"), at: at(1))
    #expect(!applied, "an answer of another kind is ignored")
    applied = state.succeed(.ok, at: at(1))
    #expect(applied)
  }

  @Test func starPickerArrowsStayWithinOneToFive() throws {
    var state = try onRating()
    try state.adjustRating(by: -1)
    #expect(state.selectedRating == 1)
    for _ in 0..<7 { try state.adjustRating(by: 1) }
    #expect(state.selectedRating == 5)
  }

  // MARK: Persistence

  @Test func persistedStateRoundTripsWithoutThePendingCall() throws {
    var state = try onConsent()
    _ = try state.approve()
    let data = try JSONEncoder().encode(state)
    let loaded = try JSONDecoder().decode(KioskState.self, from: data).normalized()
    #expect(loaded.pending == nil)
    #expect(loaded.currentScreen == .consent)
    #expect(loaded.generatedReview == state.generatedReview)
    #expect(loaded.storePublicId == "store_abc123")
  }

  @Test func incompleteStateFallsBackToIdleOrPairing() throws {
    let rating = #"{"currentScreen":"rating","storePublicId":"store_abc123","selectedRating":0}"#
    #expect(try JSONDecoder().decode(KioskState.self, from: Data(rating.utf8)).normalized().currentScreen == .idle)
    let unpaired = #"{"currentScreen":"idle","selectedRating":0}"#
    #expect(
      try JSONDecoder().decode(KioskState.self, from: Data(unpaired.utf8)).normalized().currentScreen == .pairing)
  }
}

@Suite("Kiosk rules")
struct KioskRulesTests {
  @Test func handoffURL() {
    #expect(
      KioskRules.handoffURL(baseURL: "http://localhost:3000", sessionPublicId: "sess_xyz789")
        == "http://localhost:3000/r/sess_xyz789")
    #expect(
      KioskRules.handoffURL(baseURL: "https://kiosk.example.com/", sessionPublicId: "a b/c")
        == "https://kiosk.example.com/r/a%20b%2Fc")
  }

  @Test func amounts() {
    #expect(KioskRules.formatAmount(4599) == "$45.99")
    #expect(KioskRules.formatAmount(5) == "$0.05")
    #expect(KioskRules.formatAmount(120_000, currency: "eur") == "€1200.00")
    #expect(KioskRules.formatAmount(350, currency: "CHF") == "3.50 CHF")
  }

  @Test func sessionStatusLifecycle() {
    #expect(KioskSessionStatus.pending.canMove(to: .rated))
    #expect(KioskSessionStatus.rated.canMove(to: .approved))
    #expect(KioskSessionStatus.rated.canMove(to: .declined))
    #expect(KioskSessionStatus.approved.canMove(to: .postedIntent))
    #expect(!KioskSessionStatus.pending.canMove(to: .approved))
    #expect(!KioskSessionStatus.declined.canMove(to: .postedIntent))
    #expect(KioskSessionStatus.required(for: .postedIntent) == .approved)
  }

  @Test func starsAndItems() {
    #expect(KioskRules.stars(4) == "★★★★☆")
    #expect(KioskRules.describe(KioskOrderItem(name: "Candle", quantity: 2, amount: 1598)) == "Candle ×2")
  }
}
