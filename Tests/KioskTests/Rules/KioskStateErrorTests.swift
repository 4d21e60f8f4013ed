import Foundation
import KioskRules
import Testing

/// The kiosk state machine's error handling paths: a failed call keeps the screen (or moves
/// on, for Done) and says why.
extension KioskStateTests {
  @Test func networkErrorDuringPairingShowsItAndRetryWorks() throws {
    var state = KioskState(storePublicId: nil)
    _ = try state.pair(storeId: "store_unknown")
    let applied = state.fail("Store store_unknown not found.", at: t0)
    #expect(applied)
    #expect(state.currentScreen == .pairing)
    #expect(state.errorMessage == "Store store_unknown not found.")
    #expect(state.storePublicId == nil, "nothing is saved")
    // Retry.
    let request = try state.pair(storeId: "store_abc123")
    #expect(request == .validateStore(storeId: "store_abc123"))
    #expect(state.errorMessage == nil)
    state.succeed(.nextSession(nil, nil), at: at(1))
    #expect(state.currentScreen == .idle)
  }

  @Test func pairingAnEmptyStoreIdSendsNothing() {
    var state = KioskState(storePublicId: nil)
    #expect(throws: KioskRuleError.invalidInput("Enter a store ID.")) { try state.pair(storeId: "   ") }
    #expect(state.errorMessage == "Enter a store ID.")
    #expect(state.pending == nil)
  }

  @Test func networkErrorDuringRatingKeepsTheScreenForRetryOrCancel() throws {
    var state = try onRating()
    try state.selectRating(4)
    _ = try state.submitRating()
    let applied = state.fail("The kiosk service failed.", at: at(1))
    #expect(applied)
    #expect(state.currentScreen == .rating)
    #expect(state.errorMessage == "The kiosk service failed.")
    #expect(state.selectedRating == 4, "the picked stars stay")
    #expect(state.currentSession == session)
    // Submit again ...
    let retry = try state.submitRating()
    #expect(retry == .submitRating(storeId: "store_abc123", sessionId: "sess_xyz789", rating: 4))
    state.fail("again", at: at(2))
    // ... or Cancel.
    try state.cancel()
    #expect(state.currentScreen == .idle)
    #expect(state.errorMessage == nil)
  }

  @Test func networkErrorDuringConsentKeepsTheScreen() throws {
    var state = try onConsent()
    _ = try state.approve()
    state.fail("timed out", at: at(3))
    #expect(state.currentScreen == .consent)
    #expect(state.errorMessage == "timed out")
    #expect(state.generatedReview != nil)
    // Wait: nothing happens on its own.
    let due = state.tick(at: at(100))
    #expect(due == nil)
    #expect(state.currentScreen == .consent)
    // Tap Yes/No again.
    _ = try state.decline()
    state.fail("still down", at: at(101))
    #expect(state.currentScreen == .consent)
    _ = try state.approve()
    state.succeed(.ok, at: at(102))
    #expect(state.currentScreen == .handoff)
    #expect(state.errorMessage == nil)
  }

  @Test func networkErrorDuringHandoffStillMovesOn() throws {
    var state = try onHandoff()
    _ = try state.done()
    let applied = state.fail("connection refused", at: at(5))
    #expect(applied)
    #expect(state.currentScreen == .thankYou, "graceful degradation: don't block the user")
    #expect(state.currentSession?.status == .approved, "the session was not marked done")
    _ = state.tick(at: at(8))
    #expect(state.currentScreen == .idle)
    #expect(state.errorMessage == nil)
  }

  @Test func backendDownDuringPollingKeepsPolling() throws {
    var state = paired()
    var due = state.tick(at: t0)
    #expect(due != nil)
    state.fail("The kiosk service is unreachable.", at: t0)
    #expect(state.currentScreen == .idle)
    #expect(state.errorMessage == "The kiosk service is unreachable.")
    due = state.tick(at: at(6))
    #expect(due == nil)
    due = state.tick(at: at(7))
    #expect(due == .fetchNext(storeId: "store_abc123"), "next poll attempt 7 s later")
    state.fail("still down", at: at(7))
    due = state.tick(at: at(14))
    #expect(due != nil)
    state.succeed(.nextSession(nil, nil), at: at(14))
    #expect(state.errorMessage == nil, "the error goes once a poll succeeds")
  }
}
