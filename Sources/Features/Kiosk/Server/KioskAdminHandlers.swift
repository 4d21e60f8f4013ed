import Foundation
import Hummingbird
import KioskRules
internal import SQLKit
import SandboxKioskAPI
import SandboxKit

/// The kiosk's sandbox operator endpoints under /__sandbox/v1/kiosk: new stores, the purchase
/// webhook, and sessions and stores as the backend stores them.
struct KioskAdminHandlers: SandboxKioskAPI.APIProtocol {
  let state: SandboxState

  typealias Schemas = SandboxKioskAPI.Components.Schemas

  func createStore(_ input: SandboxKioskAPI.Operations.createStore.Input) async throws
    -> SandboxKioskAPI.Operations.createStore.Output
  {
    guard case .json(let body) = input.body else { throw SandboxAPIError.internalError }
    let id = body.publicId
    guard (1...64).contains(id.utf8.count), id.utf8.allSatisfy(KioskStore.isStoreIDByte) else {
      return .badRequest(Self.error(.invalid("publicId must be 1 to 64 letters, digits, '_' or '-'.")))
    }
    let name = body.name ?? "Boutique \(id)"
    guard (1...100).contains(name.unicodeScalars.count) else {
      return .badRequest(Self.error(.invalid("name must be 1 to 100 characters.")))
    }
    let created = try await state.database.write { db in try await KioskStore.createStore(db, id: id, name: name) }
    guard created else { return .conflict(Self.error(.conflict("Store \"\(id)\" exists already."))) }
    return .created(
      .init(
        body: .json(
          .init(
            publicId: id, name: name, lastApprovedSessionId: nil,
            sessions: .init(PENDING: 0, RATED: 0, APPROVED: 0, DECLINED: 0, POSTED_INTENT: 0)))))
  }

  func triggerPurchase(_ input: SandboxKioskAPI.Operations.triggerPurchase.Input) async throws
    -> SandboxKioskAPI.Operations.triggerPurchase.Output
  {
    guard case .json(let body) = input.body else { throw SandboxAPIError.internalError }
    let storeId = input.path.storeId
    do {
      let (totalAmount, itemNames) = (body.totalAmount, body.items)
      let detail = try await state.database.write { db in
        let session = try await KioskStore.createPurchase(
          db, store: storeId, totalAmount: totalAmount, itemNames: itemNames)
        return try await Self.detail(db, session)
      }
      return .created(.init(body: .json(detail)))
    } catch let failure as KioskStore.Failure {
      if case .storeNotFound = failure { return .notFound(Self.error(failure)) }
      return .badRequest(Self.error(failure))
    }
  }

  func inspectSession(_ input: SandboxKioskAPI.Operations.inspectSession.Input) async throws
    -> SandboxKioskAPI.Operations.inspectSession.Output
  {
    let id = input.path.publicId
    let detail = try await state.database.read { db -> Schemas.SessionDetail? in
      guard let session = try await KioskStore.session(db, id) else { return nil }
      return try await Self.detail(db, session)
    }
    guard let detail else { return .notFound(Self.error(.sessionNotFound(id, store: nil))) }
    return .ok(.init(body: .json(detail)))
  }

  func inspectStore(_ input: SandboxKioskAPI.Operations.inspectStore.Input) async throws
    -> SandboxKioskAPI.Operations.inspectStore.Output
  {
    let id = input.path.storeId
    let found = try await state.database.read { db -> (KioskStore.Store, [KioskSessionStatus: Int])? in
      guard let store = try await KioskStore.store(db, id) else { return nil }
      return (store, try await KioskStore.statusCounts(db, store: id))
    }
    guard let (store, counts) = found else { return .notFound(Self.error(.storeNotFound(id))) }
    return .ok(
      .init(
        body: .json(
          .init(
            publicId: store.publicId, name: store.name, lastApprovedSessionId: store.lastApprovedSessionId,
            sessions: .init(
              PENDING: counts[.pending] ?? 0, RATED: counts[.rated] ?? 0, APPROVED: counts[.approved] ?? 0,
              DECLINED: counts[.declined] ?? 0, POSTED_INTENT: counts[.postedIntent] ?? 0)))))
  }

  // MARK: Schemas

  static func detail(_ db: any SQLDatabase, _ session: KioskStore.Session) async throws -> Schemas.SessionDetail {
    let order = try await KioskStore.order(db, session.orderPublicId)
    return .init(
      publicId: session.publicId, storePublicId: session.storePublicId,
      status: Schemas.SessionDetail.statusPayload(rawValue: session.status.rawValue) ?? .PENDING,
      starRating: session.starRating, generatedReviewText: session.generatedReviewText,
      createdAt: session.createdAt, updatedAt: session.updatedAt,
      order: .init(
        publicId: session.orderPublicId, totalAmount: order?.totalAmount ?? 0, currency: order?.currency ?? "USD",
        items: (order?.items ?? []).map { .init(name: $0.name, quantity: $0.quantity, amount: $0.amount) }))
  }

  static func error(_ failure: KioskStore.Failure) -> SandboxKioskAPI.Components.Responses._Error {
    .init(body: .json(.init(error: failure.message)))
  }

  @Sendable static func requestError(operationID: String, request: HTTPRequest, status: HTTPResponse.Status)
    -> SandboxAPIError
  {
    if operationID == "createStore" {
      return .simple(
        .badRequest, "The body must be {\"publicId\": 1 to 64 letters, digits, _ or -, \"name\": optional}.")
    }
    if operationID == "triggerPurchase" {
      return .simple(
        .badRequest, "The body must be {\"totalAmount\": cents, \"items\": [names]}, both optional.")
    }
    return .simple(status, "invalid request")
  }
}
