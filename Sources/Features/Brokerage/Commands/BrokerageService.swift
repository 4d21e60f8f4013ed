import BrokerageAPI
import BrokerageRules
import DeckCore
import DeckSupport

/// Calls the brokerage endpoints of the flyr service (the typeahead call itself is the
/// contract's, which workspace onboarding uses too).
public struct BrokerageService: Sendable {
  let context: DeckContext

  public init(context: DeckContext) { self.context = context }

  public static let limits = 1...50

  /// `GET /api/brokerages/search?q=&limit=`, with the query trimmed first.
  public func search(_ query: String, limit: Int = BrokerageRules.typeaheadLimit) async throws -> [Components.Schemas
    .Brokerage]
  {
    let trimmed = query.trimming(.whitespacesAndNewlines)
    guard !trimmed.isEmpty else {
      throw DeckError.usage("The search query is empty.", hint: "Give some text, e.g.: deck brokerage search keller")
    }
    guard Self.limits.contains(limit) else {
      throw DeckError.usage("--limit must be between 1 and 50, got \(limit).")
    }
    let client = try await context.client(.flyr) { Client(serverURL: $0, transport: $1, middlewares: $2) }
    return try await client.typeahead(trimmed, limit: limit)
  }
}
