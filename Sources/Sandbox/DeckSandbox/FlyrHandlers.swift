import FlyrAPI
import Foundation
import Hummingbird

/// The FLYR-PRO backend routes (brokerage search; workspace routes join later).
struct FlyrHandlers: FlyrAPI.APIProtocol {
  let state: SandboxState

  func searchBrokerages(_ input: FlyrAPI.Operations.searchBrokerages.Input) async throws
    -> FlyrAPI.Operations.searchBrokerages.Output
  {
    let query: String
    let limit: Int
    do {
      (query, limit) = try BrokerageSearch.validate(query: input.query.q, limit: input.query.limit)
    } catch {
      return .badRequest(.init(body: .json(.init(error: error.message))))
    }
    let matches = try await state.pool.read { db in
      try BrokerageSearch.search(db, query: query, limit: limit)
    }
    return .ok(.init(body: .json(matches.map { .init(id: $0.id, name: $0.name) })))
  }

  /// Error bodies for requests the generated server could not decode (missing q, limit not
  /// an integer).
  @Sendable static func requestError(operationID: String, request: HTTPRequest, status: HTTPResponse.Status)
    -> SandboxAPIError
  {
    if operationID == "searchBrokerages" {
      let q = ContractText.trim(QueryItems.value(of: "q", in: request) ?? "")
      let message =
        q.isEmpty
        ? BrokerageSearch.InvalidRequest.missingQuery.message
        : BrokerageSearch.InvalidRequest.limitOutOfRange.message
      return .simple(.badRequest, message)
    }
    // A body the generated server could not decode, or a null the document does not allow:
    // the spec's own message where it has one.
    switch (operationID, status) {
    case ("createCheckoutSession", .badRequest): return .simple(.badRequest, invalidPrice)
    case ("acceptInvite", .badRequest), ("validateInvite", .badRequest):
      return .simple(.badRequest, InviteMessage.tokenRequired)
    default: return .simple(status, "invalid request")
    }
  }
}
