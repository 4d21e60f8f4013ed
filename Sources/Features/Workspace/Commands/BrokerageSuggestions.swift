import BrokerageAPI
import BrokerageRules
import DeckCore

extension WorkspaceService {
  /// The onboarding typeahead (brokerage-onboarding.md, section 4): the brokerage directory's
  /// own call (`typeahead`, in its BrokerageAPI contract, on the flyr service), its first matches.
  func brokerageSuggestions(_ query: String) async throws -> [BrokerageSuggestion] {
    let client = try await context.client(.flyr) {
      BrokerageAPI.Client(serverURL: $0, transport: $1, middlewares: $2)
    }
    return try await client.typeahead(query, limit: BrokerageRules.typeaheadLimit).map {
      BrokerageSuggestion(id: $0.id, name: $0.name)
    }
  }
}
