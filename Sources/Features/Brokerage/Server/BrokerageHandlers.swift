import BrokerageAPI
import Foundation
import Hummingbird
import SandboxKit

/// The brokerage directory's routes of the FLYR-PRO backend (the BrokerageAPI contract).
struct BrokerageHandlers: BrokerageAPI.APIProtocol {
  let state: SandboxState

  func searchBrokerages(_ input: BrokerageAPI.Operations.searchBrokerages.Input) async throws
    -> BrokerageAPI.Operations.searchBrokerages.Output
  {
    let query: String
    let limit: Int
    do {
      (query, limit) = try BrokerageSearch.validate(query: input.query.q, limit: input.query.limit)
    } catch {
      return .badRequest(.init(body: .json(.init(error: error.message))))
    }
    let matches = try await state.database.read { db in
      try await BrokerageSearch.search(db, query: query, limit: limit)
    }
    return .ok(.init(body: .json(matches.map { .init(id: $0.id, name: $0.name) })))
  }

  /// Error bodies for requests the generated server could not decode (missing q, limit not
  /// an integer).
  @Sendable static func requestError(operationID: String, request: HTTPRequest, status: HTTPResponse.Status)
    -> SandboxAPIError
  {
    let q = ContractText.trim(QueryItems.value(of: "q", in: request) ?? "")
    let message =
      q.isEmpty
      ? BrokerageSearch.InvalidRequest.missingQuery.message
      : BrokerageSearch.InvalidRequest.limitOutOfRange.message
    return .simple(.badRequest, message)
  }
}
