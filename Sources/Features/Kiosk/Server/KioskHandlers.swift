import Foundation
import Hummingbird
import KioskAPI
import KioskRules
import OpenAPIRuntime
internal import SQLKit
import SandboxKit

/// The kiosk backend (kiosk-review-flow.md, API Call Sequence) on the sandbox database.
struct KioskHandlers: KioskAPI.APIProtocol {
  let state: SandboxState

  typealias Schemas = KioskAPI.Components.Schemas

  func getNextSession(_ input: KioskAPI.Operations.getNextSession.Input) async throws
    -> KioskAPI.Operations.getNextSession.Output
  {
    let storeId = input.path.storeId
    do {
      let next = try await state.database.read { db in try await KioskStore.nextPending(db, store: storeId) }
      guard let (session, order) = next else { return .ok(.init(body: .json(.init(session: nil, order: nil)))) }
      return .ok(.init(body: .json(.init(session: Self.schema(session), order: order.map(Self.schema)))))
    } catch let failure as KioskStore.Failure {
      return .notFound(Self.error(failure))
    }
  }

  func submitRating(_ input: KioskAPI.Operations.submitRating.Input) async throws
    -> KioskAPI.Operations.submitRating.Output
  {
    guard case .json(let body) = input.body else { throw SandboxAPIError.internalError }
    let (storeId, sessionId, rating) = (input.path.storeId, input.path.sessionId, body.starRating)
    do {
      // Checked and changed in one write transaction: of two kiosks rating at once, one wins.
      let text = try await state.database.write { db in
        try await KioskStore.rate(db, store: storeId, session: sessionId, rating: rating)
      }
      return .ok(.init(body: .json(.init(generatedReviewText: text))))
    } catch let failure as KioskStore.Failure {
      switch failure {
      case .storeNotFound, .sessionNotFound: return .notFound(Self.error(failure))
      case .invalid: return .badRequest(Self.error(failure))
      case .conflict: return .conflict(Self.error(failure))
      }
    }
  }

  func approveSession(_ input: KioskAPI.Operations.approveSession.Input) async throws
    -> KioskAPI.Operations.approveSession.Output
  {
    let (storeId, sessionId) = (input.path.storeId, input.path.sessionId)
    do {
      try await state.database.write { db in
        try await KioskStore.consent(db, store: storeId, session: sessionId, approve: true)
      }
      return .ok(Self.ok)
    } catch let failure as KioskStore.Failure {
      if case .conflict = failure { return .conflict(Self.error(failure)) }
      return .notFound(Self.error(failure))
    }
  }

  func declineSession(_ input: KioskAPI.Operations.declineSession.Input) async throws
    -> KioskAPI.Operations.declineSession.Output
  {
    let (storeId, sessionId) = (input.path.storeId, input.path.sessionId)
    do {
      try await state.database.write { db in
        try await KioskStore.consent(db, store: storeId, session: sessionId, approve: false)
      }
      return .ok(Self.ok)
    } catch let failure as KioskStore.Failure {
      if case .conflict = failure { return .conflict(Self.error(failure)) }
      return .notFound(Self.error(failure))
    }
  }

  func markSessionDone(_ input: KioskAPI.Operations.markSessionDone.Input) async throws
    -> KioskAPI.Operations.markSessionDone.Output
  {
    do {
      let sessionId = input.path.sessionId
      try await state.database.write { db in try await KioskStore.markDone(db, session: sessionId) }
      return .ok(Self.ok)
    } catch let failure as KioskStore.Failure {
      if case .conflict = failure { return .conflict(Self.error(failure)) }
      return .notFound(Self.error(failure))
    }
  }

  // MARK: Schemas

  static let ok = KioskAPI.Components.Responses.Ok(body: .json(.init(ok: true)))

  static func error(_ failure: KioskStore.Failure) -> KioskAPI.Components.Responses._Error {
    .init(body: .json(.init(error: failure.message)))
  }

  static func schema(_ session: KioskStore.Session) -> Schemas.ReviewSession {
    .init(
      publicId: session.publicId, status: Schemas.SessionStatus(rawValue: session.status.rawValue) ?? .PENDING,
      starRating: session.starRating, generatedReviewText: session.generatedReviewText, createdAt: session.createdAt)
  }

  static func schema(_ order: KioskStore.Order) -> Schemas.Order {
    .init(
      publicId: order.publicId, totalAmount: order.totalAmount, currency: order.currency,
      items: order.items.map { .init(name: $0.name, quantity: $0.quantity, amount: $0.amount) })
  }

  /// Error bodies for requests the generated server could not decode (a rating that is not
  /// an integer, a missing body).
  @Sendable static func requestError(operationID: String, request: HTTPRequest, status: HTTPResponse.Status)
    -> SandboxAPIError
  {
    if operationID == "submitRating" {
      return .simple(.badRequest, "The body must be {\"starRating\": N} with N an integer from 1 to 5.")
    }
    return .simple(status, "invalid request")
  }
}
