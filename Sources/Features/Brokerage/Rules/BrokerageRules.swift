/// The text rules of brokerage onboarding.
public enum BrokerageRules {
  /// The id under which the brokerage module registers its name completion; other features
  /// (workspace onboarding's `--brokerage`) complete brokerage names through it.
  public static let nameCompletionID = "brokerage-names"

  /// How many matches the typeahead shows (section 4), in search and in workspace onboarding.
  public static let typeaheadLimit = 15

  /// Trims leading and trailing whitespace and collapses inner runs of whitespace to one space.
  public static func sanitize(_ text: String) -> String {
    text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
  }

  /// The suggestion whose name equals the text, ignoring case (after sanitizing both).
  public static func exactMatch(_ text: String, in suggestions: [BrokerageSuggestion]) -> BrokerageSuggestion? {
    let wanted = sanitize(text).lowercased()
    guard !wanted.isEmpty else { return nil }
    return suggestions.first { sanitize($0.name).lowercased() == wanted }
  }

  /// Whether the text is a UUID (8-4-4-4-12 hex digits), the form a `brokerageId` takes.
  public static func isUUID(_ text: String) -> Bool {
    let groups = text.split(separator: "-", omittingEmptySubsequences: false)
    guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return false }
    return groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
  }
}

/// Lets one submission through at a time (QA matrix row 7: double-submit protection).
public struct SubmissionGate: Sendable, Equatable {
  public private(set) var inFlight = false
  public init() {}

  /// True when the caller may submit now; false while another submission is in flight.
  public mutating func begin() -> Bool {
    guard !inFlight else { return false }
    inFlight = true
    return true
  }

  public mutating func end() { inFlight = false }
}

extension String {
  func trimmingWhitespace() -> String {
    var view = Substring(self)
    while let first = view.first, first.isWhitespace { view = view.dropFirst() }
    while let last = view.last, last.isWhitespace { view = view.dropLast() }
    return String(view)
  }
}
