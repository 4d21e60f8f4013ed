/// The kiosk's screens (kiosk-review-flow.md, "AppState.currentScreen Values").
public enum KioskScreen: String, Codable, Sendable, CaseIterable {
  /// Entry point when no store is paired.
  case pairing
  /// The attract screen; polls for the next purchase.
  case idle
  /// Star rating input.
  case rating
  /// The generated review, approve or decline.
  case consent
  /// The QR code to the review's landing page, with a countdown.
  case handoff
  /// A brief thank-you, then back to idle.
  case thankYou

  /// How people call it: "thank-you" rather than "thankYou".
  public var label: String { self == .thankYou ? "thank-you" : rawValue }
}

/// What an operator (or a key) can ask the kiosk to do; named like the `deck kiosk` commands.
public enum KioskAction: String, Sendable, CaseIterable {
  case pair, next, rate, approve, decline, done, cancel, unpair

  /// What the action does, for messages: "Cannot rate: …".
  public var verb: String {
    switch self {
    case .pair: "pair"
    case .next: "look for the next session"
    case .rate: "rate"
    case .approve: "approve"
    case .decline: "decline"
    case .done: "finish the handoff"
    case .cancel: "cancel"
    case .unpair: "unpair"
    }
  }
}

/// A review session's status on the backend: PENDING → RATED → APPROVED | DECLINED, and
/// APPROVED → POSTED_INTENT.
public enum KioskSessionStatus: String, Codable, Sendable, CaseIterable {
  case pending = "PENDING"
  case rated = "RATED"
  case approved = "APPROVED"
  case declined = "DECLINED"
  case postedIntent = "POSTED_INTENT"

  /// The statuses a session may move to from this one.
  public var next: [KioskSessionStatus] {
    switch self {
    case .pending: [.rated]
    case .rated: [.approved, .declined]
    case .approved: [.postedIntent]
    case .declined, .postedIntent: []
    }
  }

  public func canMove(to status: KioskSessionStatus) -> Bool { next.contains(status) }

  /// The one status a transition may start from (what a 409 message names).
  public static func required(for target: KioskSessionStatus) -> KioskSessionStatus? {
    allCases.first { $0.canMove(to: target) }
  }
}

/// The review session the kiosk is working on (`currentSession`).
public struct KioskSession: Codable, Sendable, Equatable {
  public var publicId: String
  public var status: KioskSessionStatus

  public init(publicId: String, status: KioskSessionStatus) {
    self.publicId = publicId
    self.status = status
  }
}

/// One line of an order.
public struct KioskOrderItem: Codable, Sendable, Equatable {
  public var name: String
  public var quantity: Int
  /// The line's price in minor units (cents).
  public var amount: Int

  public init(name: String, quantity: Int = 1, amount: Int) {
    self.name = name
    self.quantity = quantity
    self.amount = amount
  }
}

/// The purchase behind a session (`currentOrder`).
public struct KioskOrder: Codable, Sendable, Equatable {
  public var publicId: String?
  /// In minor units (cents): 4599 is $45.99.
  public var totalAmount: Int
  public var currency: String
  public var items: [KioskOrderItem]

  public init(publicId: String? = nil, totalAmount: Int, currency: String = "USD", items: [KioskOrderItem]) {
    self.publicId = publicId
    self.totalAmount = totalAmount
    self.currency = currency
    self.items = items
  }

  /// "$45.99".
  public var formattedTotal: String { KioskRules.formatAmount(totalAmount, currency: currency) }
}

/// The spec's timing table: poll every 7 s on idle, a 30 s handoff, a 3 s thank-you.
/// Shorter values are for tests and demos.
public struct KioskTimings: Codable, Sendable, Equatable {
  public var pollInterval: Double
  public var handoffTimeout: Double
  public var thankYouDuration: Double

  public init(pollInterval: Double = 7, handoffTimeout: Double = 30, thankYouDuration: Double = 3) {
    self.pollInterval = pollInterval
    self.handoffTimeout = handoffTimeout
    self.thankYouDuration = thankYouDuration
  }

  /// The spec's values.
  public static let standard = KioskTimings()

  /// The accepted range of each timing, in seconds.
  public static let range: ClosedRange<Double> = 0...3600
}

/// A backend call the kiosk wants made. The state machine returns one; the driver performs
/// it and reports the result back with ``KioskState/succeed(_:at:)`` or ``KioskState/fail(_:at:)``.
public enum KioskRequest: Sendable, Equatable {
  /// `GET /api/v1/kiosk/{storeId}/next`, to check the store exists (pairing).
  case validateStore(storeId: String)
  /// `GET /api/v1/kiosk/{storeId}/next`, polling on idle.
  case fetchNext(storeId: String)
  /// `POST /api/v1/kiosk/{storeId}/sessions/{sessionId}/rating`.
  case submitRating(storeId: String, sessionId: String, rating: Int)
  /// `POST /api/v1/kiosk/{storeId}/sessions/{sessionId}/approve`.
  case approve(storeId: String, sessionId: String)
  /// `POST /api/v1/kiosk/{storeId}/sessions/{sessionId}/decline`.
  case decline(storeId: String, sessionId: String)
  /// `POST /api/v1/review/{sessionId}/done`.
  case markDone(sessionId: String)
}

/// A successful answer to a ``KioskRequest``.
public enum KioskResponse: Sendable, Equatable {
  /// The answer of `next`: the waiting session and its order, or nils.
  case nextSession(KioskSession?, KioskOrder?)
  /// The answer of `rating`: the generated review.
  case review(String)
  /// `{ok: true}` (approve, decline, done).
  case ok
}

/// Why the kiosk refused an action, before anything was sent.
public enum KioskRuleError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The action does not fit the current screen.
  case wrongScreen(action: KioskAction, screen: KioskScreen)
  /// A backend call is already under way.
  case busy
  /// The input is not valid (empty store id, a rating outside 1–5, no rating picked).
  case invalidInput(String)

  public var description: String {
    switch self {
    case .wrongScreen(let action, let screen):
      let accepted = KioskRules.accepted(on: screen)
      let what =
        screen == .pairing
        ? "the kiosk is not paired (pairing screen)" : "the kiosk is on the \(screen.label) screen"
      let accepts =
        accepted.isEmpty
        ? "which accepts nothing: it returns to idle by itself"
        : "which accepts: \(accepted.map(\.rawValue).joined(separator: ", "))"
      return "Cannot \(action.verb): \(what), \(accepts)."
    case .busy:
      return "The kiosk is waiting for the backend; try again when it answers."
    case .invalidInput(let message):
      return message
    }
  }
}
