import BrokerageAPI
import BrokerageRules
import DeckCore

extension WorkspaceService {
  /// `GET /api/brokerages/search` (the brokerage directory's BrokerageAPI contract, on the
  /// flyr service) for the onboarding typeahead (brokerage-onboarding.md, section 4): the
  /// first 15 matches.
  func brokerageSuggestions(_ query: String) async throws -> [BrokerageSuggestion] {
    let client = try await context.client(.flyr) {
      BrokerageAPI.Client(serverURL: $0, transport: $1, middlewares: $2)
    }
    return try await client.searchBrokerages(query: .init(q: query, limit: 15)).ok.body.json.map {
      BrokerageSuggestion(id: $0.id, name: $0.name)
    }
  }
}
