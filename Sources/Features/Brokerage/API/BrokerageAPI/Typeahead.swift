extension Client {
  /// The brokerage typeahead (`GET /api/brokerages/search?q=&limit=`), the one call that
  /// `deck brokerage search` and workspace onboarding's brokerage step share: the names that
  /// match `query`, at most `limit` of them (brokerage-onboarding.md, section 4).
  public func typeahead(_ query: String, limit: Int) async throws -> [Components.Schemas.Brokerage] {
    try await searchBrokerages(query: .init(q: query, limit: limit)).ok.body.json
  }
}
