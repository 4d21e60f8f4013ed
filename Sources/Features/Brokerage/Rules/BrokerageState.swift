/// A row of the brokerage typeahead (brokerage-onboarding.md, section 5).
public struct BrokerageSuggestion: Sendable, Equatable, Hashable, Codable {
  public var id: String
  public var name: String
  public init(id: String, name: String) {
    self.id = id
    self.name = name
  }
}

/// The brokerage fields of `POST /api/onboarding/complete` (section 7).
public struct BrokeragePayload: Sendable, Equatable {
  public var brokerage: String?
  public var brokerageId: String?
  public init(brokerage: String? = nil, brokerageId: String? = nil) {
    self.brokerage = brokerage
    self.brokerageId = brokerageId
  }
}

/// The onboarding brokerage view model (sections 3, 5, 7, 8 and 9): pure state and
/// transitions, no I/O. The terminal wizard and the one-shot flags both drive it, and it
/// alone builds the payload, so every path maps brokerage the same way.
public struct BrokerageState: Sendable, Equatable {
  public private(set) var industry: String = ""
  public private(set) var brokerageText: String = ""
  public private(set) var selectedBrokerageId: String?
  public private(set) var suggestions: [BrokerageSuggestion] = []
  public private(set) var isSuggestionsOpen = false
  public private(set) var isSearching = false
  public private(set) var searchError: String?
  /// The query whose results are awaited; results for any other query are stale.
  public private(set) var pendingQuery: String?

  public init() {}

  // MARK: Derived flags (section 5)

  public var showBrokerageField: Bool { industry == Industry.realEstate.rawValue }
  public var hasTypedBrokerage: Bool { !BrokerageRules.sanitize(brokerageText).isEmpty }
  public var isExistingSelection: Bool { selectedBrokerageId != nil }

  /// Whether to offer `Add "<text>" as new brokerage`: there is typed text and no returned
  /// suggestion matches it exactly, ignoring case (section 4), including when there are none.
  public var showsAddNew: Bool {
    showBrokerageField && hasTypedBrokerage && !isExistingSelection
      && BrokerageRules.exactMatch(brokerageText, in: suggestions) == nil
  }

  public var addNewLabel: String { "Add \"\(BrokerageRules.sanitize(brokerageText))\" as new brokerage" }

  // MARK: Transitions (section 8)

  /// Sets the industry; leaving Real Estate clears the text, the selection and the list.
  public mutating func onIndustryChanged(_ newValue: String) {
    industry = newValue
    if !showBrokerageField { resetBrokerage() }
  }

  /// Sets the text and clears any selection (a stale id must never be sent). Returns the
  /// trimmed query to search for, or nil when no search should run.
  @discardableResult
  public mutating func onBrokerageTextChanged(_ newText: String) -> String? {
    brokerageText = newText
    selectedBrokerageId = nil
    searchError = nil
    let query = newText.trimmingWhitespace()
    guard showBrokerageField, !query.isEmpty else {
      suggestions = []
      isSuggestionsOpen = false
      isSearching = false
      pendingQuery = nil
      return nil
    }
    isSearching = true
    pendingQuery = query
    return query
  }

  /// Shows results, unless they answer an older query.
  public mutating func onSearchResults(_ results: [BrokerageSuggestion], for query: String) {
    guard query == pendingQuery, showBrokerageField else { return }
    suggestions = results
    isSearching = false
    isSuggestionsOpen = true
    pendingQuery = nil
  }

  /// A failed search clears the list but keeps the typed value, so the user can go on (section 6).
  public mutating func onSearchFailed(_ message: String = "Couldn’t load suggestions", for query: String) {
    guard query == pendingQuery else { return }
    suggestions = []
    isSearching = false
    searchError = message
    isSuggestionsOpen = hasTypedBrokerage
    pendingQuery = nil
  }

  /// Picks an existing brokerage: its name becomes the text and its id is selected.
  public mutating func onSelectSuggestion(_ item: BrokerageSuggestion) {
    brokerageText = item.name
    selectedBrokerageId = item.id
    isSuggestionsOpen = false
    pendingQuery = nil
    isSearching = false
  }

  /// Keeps the typed text (sanitized) as a new brokerage, with no id.
  public mutating func onSelectAddNew() {
    brokerageText = BrokerageRules.sanitize(brokerageText)
    selectedBrokerageId = nil
    isSuggestionsOpen = false
    pendingQuery = nil
    isSearching = false
  }

  /// Esc, an outside tap: close the list, keep the text and selection.
  public mutating func onDismissSuggestions() {
    isSuggestionsOpen = false
  }

  // MARK: Submission (section 7)

  /// The brokerage fields to send. Outside Real Estate there are none; a selection sends
  /// its id with the text; typed text is sent sanitized with no id.
  public func payload() -> BrokeragePayload {
    guard showBrokerageField else { return BrokeragePayload() }
    let text = BrokerageRules.sanitize(brokerageText)
    if let id = selectedBrokerageId {
      return BrokeragePayload(brokerage: text.isEmpty ? nil : text, brokerageId: id)
    }
    return BrokeragePayload(brokerage: text.isEmpty ? nil : text, brokerageId: nil)
  }

  private mutating func resetBrokerage() {
    brokerageText = ""
    selectedBrokerageId = nil
    suggestions = []
    isSuggestionsOpen = false
    isSearching = false
    searchError = nil
    pendingQuery = nil
  }
}
