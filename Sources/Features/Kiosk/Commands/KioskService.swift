import DeckCore
import DeckSupport
import FoundationEssentials
import KioskAPI
import KioskRules

/// Performs the kiosk state machine's requests against the kiosk service (the generated
/// client, with deck's middleware: non-2xx answers arrive as `DeckError`s).
struct KioskService: Sendable {
  let client: KioskAPI.Client
  /// The kiosk service's base URL: the handoff URL is `{base}/r/{sessionPublicId}`.
  let baseURL: String

  static func connect(_ context: DeckContext) async throws -> KioskService {
    let client = try await context.client(.kiosk) { KioskAPI.Client(serverURL: $0, transport: $1, middlewares: $2) }
    return KioskService(client: client, baseURL: try await context.baseURL(for: .kiosk).absoluteString)
  }

  func perform(_ request: KioskRequest) async throws -> KioskResponse {
    switch request {
    case .validateStore(let store), .fetchNext(let store):
      let next = try await client.getNextSession(path: .init(storeId: store)).ok.body.json
      return .nextSession(next.session.map(Self.session), next.order.map(Self.order))
    case .submitRating(let store, let session, let rating):
      let answer = try await client.submitRating(
        path: .init(storeId: store, sessionId: session), body: .json(.init(starRating: rating))
      ).ok.body.json
      return .review(answer.generatedReviewText)
    case .approve(let store, let session):
      _ = try await client.approveSession(path: .init(storeId: store, sessionId: session)).ok
      return .ok
    case .decline(let store, let session):
      _ = try await client.declineSession(path: .init(storeId: store, sessionId: session)).ok
      return .ok
    case .markDone(let session):
      _ = try await client.markSessionDone(path: .init(sessionId: session)).ok
      return .ok
    }
  }

  /// Performs the request and reports the outcome to the state machine. Returns the error,
  /// if any, after the machine has taken it in (it decides what the screen does).
  @discardableResult
  func run(_ request: KioskRequest, on state: inout KioskState) async -> DeckError? {
    do {
      let response = try await perform(request)
      state.succeed(response, at: Date())
      return nil
    } catch {
      let failure = ErrorPresenter.deckError(for: error)
      state.fail(failure.message, at: Date())
      return failure
    }
  }

  static func session(_ session: Components.Schemas.ReviewSession) -> KioskSession {
    KioskSession(
      publicId: session.publicId, status: KioskSessionStatus(rawValue: session.status.rawValue) ?? .pending)
  }

  static func order(_ order: Components.Schemas.Order) -> KioskOrder {
    KioskOrder(
      publicId: order.publicId, totalAmount: order.totalAmount, currency: order.currency ?? "USD",
      items: order.items.map { KioskOrderItem(name: $0.name, quantity: $0.quantity, amount: $0.amount) })
  }
}
