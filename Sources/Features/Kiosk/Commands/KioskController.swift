import DeckCore
import DeckSupport
import FoundationEssentials
import KioskRules

/// What every one-shot `deck kiosk` command does: load the environment's kiosk state, let
/// the timers that ran out while nobody looked take effect, apply one action of the state
/// machine, perform its backend call, save, and print where the kiosk is now.
final class KioskController {
  let context: DeckContext
  let file: KioskStateFile
  var state: KioskState
  private var cachedService: KioskService?

  init(context: DeckContext) throws {
    self.context = context
    file = try KioskStateFile(context: context)
    state = try file.load()
  }

  func service() async throws -> KioskService {
    if let cachedService { return cachedService }
    let service = try await KioskService.connect(context)
    cachedService = service
    return service
  }

  /// A handoff whose 30 s ran out is marked done (as its timer would have); a thank-you is
  /// over at once (one-shot commands show it as their output). Returns what happened.
  func catchUp(at now: Date = Date()) async throws {
    if state.currentScreen == .handoff, state.remainingHandoffSeconds(at: now) == 0,
      let request = state.tick(at: now)
    {
      let sessionId = state.currentSession?.publicId ?? ""
      let failure = try await service().run(request, on: &state)
      if let failure {
        context.output.info("The handoff of \(sessionId) timed out; marking it done failed: \(failure.message)")
      } else {
        context.output.info("The handoff of \(sessionId) timed out; it was marked done.")
      }
    }
    if state.currentScreen == .thankYou { state.thankYouElapsed() }
  }

  /// Applies a state machine action; a refusal becomes a usage error (exit 64, nothing sent).
  func act<T>(_ action: (inout KioskState) throws(KioskRuleError) -> T) throws -> T {
    try Self.act(&state, action)
  }

  /// Applies a state machine action to `state`, as every kiosk (one-shot, full-screen or
  /// scripted) does: a refusal becomes a usage error whose hint says what the screen allows.
  static func act<T>(_ state: inout KioskState, _ action: (inout KioskState) throws(KioskRuleError) -> T) throws
    -> T
  {
    do {
      return try action(&state)
    } catch {
      throw deckError(error, state: state)
    }
  }

  /// Performs the request, lets the machine take the outcome in, saves, and rethrows a failure.
  func perform(_ request: KioskRequest) async throws {
    let failure = try await service().run(request, on: &state)
    try save()
    if let failure { throw failure }
  }

  func save() throws { try file.save(state) }

  static func deckError(_ error: KioskRuleError, state: KioskState) -> DeckError {
    switch error {
    case .wrongScreen:
      let hint: String
      switch state.currentScreen {
      case .pairing: hint = "Pair it with: deck kiosk pair STORE_ID"
      case .idle: hint = "Wait for a purchase with: deck kiosk next"
      case .rating: hint = "Rate with: deck kiosk rate 1..5, or: deck kiosk cancel"
      case .consent: hint = "Answer with: deck kiosk approve, or: deck kiosk decline"
      case .handoff: hint = "Finish with: deck kiosk done"
      case .thankYou: hint = "See where it is with: deck kiosk status"
      }
      return DeckError.usage(error.description, hint: hint)
    case .busy, .invalidInput:
      return DeckError.usage(error.description)
    }
  }

  // MARK: Output

  func view(at now: Date = Date(), acted: KioskSession? = nil) async -> KioskStatusView {
    let base = try? await context.baseURL(for: .kiosk).absoluteString
    return KioskStatusView(state: state, environment: file.environment, baseURL: base, now: now, acted: acted)
  }

  /// Where the kiosk is now, as the command's result: its data, or for a person what `table`
  /// prints (by default, the status as aligned fields). A step command passes the session it
  /// acted on, with its status after the step (`acted` in the JSON).
  func emitStatus(
    at now: Date = Date(), acted: KioskSession? = nil, table: ((KioskStatusView) throws -> Void)? = nil
  ) async throws {
    let view = await view(at: now, acted: acted)
    try context.output.emit(view) {
      if let table { try table(view) } else { view.printFields(context.output) }
    }
  }

  /// The status after `pair` or `unpair`, with `changed`: false when the command found the
  /// kiosk as it asked for (already paired with that store, or not paired) and did nothing.
  func emitPairing(changed: Bool, table: @escaping (KioskStatusView) throws -> Void) async throws {
    let view = await view()
    try context.output.emit(KioskPairingView(status: view, changed: changed)) { try table(view) }
  }

  /// The session's total and items, as the rating screen shows them.
  func printOrder() {
    guard let order = state.currentOrder else { return }
    context.output.fields([("total", order.formattedTotal)])
    context.output.table(
      ["ITEM", "QTY", "AMOUNT"],
      order.items.map { [$0.name, "\($0.quantity)", KioskRules.formatAmount($0.amount, currency: order.currency)] })
  }
}

/// Where the kiosk is: what `deck kiosk status --json` (and every command's --json) prints.
/// Every key is present; missing values are null. `session` is the kiosk's current session
/// (null once a step brought it back to idle); `acted` is the session a step command (next,
/// rate, approve, decline, done, cancel) acted on, with its status after the step, so a
/// script sees a session's final status (null for status, pair and unpair, and for a `next`
/// that found no purchase).
struct KioskStatusView: Encodable, Sendable {
  var environment: String
  @ExplicitNull var storePublicId: String?
  var screen: String
  var accepts: [String]
  @ExplicitNull var session: KioskSession?
  @ExplicitNull var order: KioskOrder?
  @ExplicitNull var selectedRating: Int?
  @ExplicitNull var generatedReviewText: String?
  @ExplicitNull var errorMessage: String?
  @ExplicitNull var handoffURL: String? = nil
  @ExplicitNull var handoffRemainingSeconds: Int? = nil
  @ExplicitNull var acted: KioskSession? = nil

  init(state: KioskState, environment: String, baseURL: String?, now: Date, acted: KioskSession? = nil) {
    self.environment = environment
    self.acted = acted
    storePublicId = state.storePublicId
    screen = state.currentScreen.rawValue
    accepts = state.acceptedActions.map(\.rawValue)
    session = state.currentSession
    order = state.currentOrder
    selectedRating = state.selectedRating > 0 ? state.selectedRating : nil
    generatedReviewText = state.generatedReview
    errorMessage = state.errorMessage
    if state.currentScreen == .handoff {
      handoffURL = baseURL.flatMap { state.handoffURL(baseURL: $0) }
      handoffRemainingSeconds = state.remainingHandoffSeconds(at: now)
    }
  }

  func printFields(_ output: Output) {
    var rows: [(String, String)] = [
      ("environment", environment),
      ("store", storePublicId ?? "(not paired)"),
      ("screen", "\(screen) (accepts: \(accepts.isEmpty ? "nothing" : accepts.joined(separator: ", ")))"),
    ]
    if let session { rows.append(("session", "\(session.publicId) (\(session.status.rawValue))")) }
    if let order {
      rows.append(("total", order.formattedTotal))
      rows.append(("items", order.items.map(KioskRules.describe).joined(separator: ", ")))
    }
    if let selectedRating { rows.append(("rating", "\(KioskRules.stars(selectedRating)) (\(selectedRating))")) }
    if let generatedReviewText { rows.append(("review", generatedReviewText)) }
    if let handoffURL { rows.append(("handoff", handoffURL)) }
    if let handoffRemainingSeconds {
      rows.append(
        (
          "time left",
          handoffRemainingSeconds > 0
            ? "\(handoffRemainingSeconds)s" : "none: the next command marks the session done"
        ))
    }
    if let errorMessage { rows.append(("error", errorMessage)) }
    output.fields(rows)
  }
}

/// What `pair` and `unpair` print with --json: the status, and whether the command changed
/// the pairing (`"changed": false` for a re-run that found nothing to do).
struct KioskPairingView: Encodable, Sendable {
  var status: KioskStatusView
  var changed: Bool

  enum CodingKeys: String, CodingKey { case changed }

  func encode(to encoder: any Encoder) throws {
    try status.encode(to: encoder)
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(changed, forKey: .changed)
  }
}
