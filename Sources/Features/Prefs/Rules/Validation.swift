/// One problem with one field: what was given, what is allowed, and the sentence a user reads,
/// e.g. `gpa: 5.5 is out of range; allowed 0.0–5.0`.
public struct ValidationIssue: Error, Sendable, Equatable, Codable, CustomStringConvertible {
  /// The field (JSON key, preference type or document part) the problem is about.
  public var field: String
  /// The offending value as shown in the message (text quoted); empty when there is none.
  public var value: String
  /// What the field accepts.
  public var allowed: String
  /// The rendered message: `field: value problem; advice`.
  public var message: String

  public init(field: String, value: String, allowed: String, message: String) {
    self.field = field
    self.value = value
    self.allowed = allowed
    self.message = message
  }

  /// `field: value problem; advice`, leaving out the value when there is none.
  init(field: String, value: String, problem: String, advice: String, allowed: String) {
    let shown = value.isEmpty ? "" : value + " "
    self.init(field: field, value: value, allowed: allowed, message: "\(field): \(shown)\(problem); \(advice)")
  }

  public var description: String { message }

  /// `field: value is out of range; allowed A`.
  static func outOfRange(_ field: String, _ value: String, allowed: String) -> Self {
    Self(field: field, value: value, problem: "is out of range", advice: "allowed \(allowed)", allowed: allowed)
  }

  /// `field: value is not allowed; use A`.
  static func notAllowed(_ field: String, _ value: String, allowed: String) -> Self {
    Self(field: field, value: value, problem: "is not allowed", advice: "use \(allowed)", allowed: allowed)
  }

  /// `field: value <problem>; use A`.
  static func invalid(_ field: String, _ value: String, _ problem: String, allowed: String) -> Self {
    Self(field: field, value: value, problem: problem, advice: "use \(allowed)", allowed: allowed)
  }

  /// `field: value is not <expected>; allowed A`, or without the advice when it would only repeat the type.
  static func wrongType(_ field: String, _ value: String, expected: String, allowed: String) -> Self {
    let message = "\(field): \(value) is not \(expected)" + (allowed == expected ? "" : "; allowed \(allowed)")
    return Self(field: field, value: value, allowed: allowed, message: message)
  }

  /// `field: missing; use A` for a required part that is absent.
  static func missing(_ field: String, allowed: String) -> Self {
    Self(field: field, value: "", problem: "missing", advice: "use \(allowed)", allowed: allowed)
  }
}

/// The outcome of checking a value: every problem found, not just the first. Thrown by the
/// operations that refuse input, so callers handle one error type.
public struct Validation: Error, Sendable, Equatable, Codable, CustomStringConvertible {
  public var issues: [ValidationIssue]

  public init(_ issues: [ValidationIssue] = []) { self.issues = issues }

  public static let valid = Validation()

  public var isValid: Bool { issues.isEmpty }
  public var messages: [String] { issues.map(\.message) }
  /// The messages on one line, separated by `; `.
  public var summary: String { messages.joined(separator: "; ") }
  public var description: String { summary }

  /// Throws `self` when there is any issue.
  public func check() throws(Validation) { if !isValid { throw self } }

  /// How many problems a list shows before "and N more", as compilers cap their errors.
  public static let shownLimit = 20

  /// The messages, at most `limit` of them and then `and N more`.
  public func listed(limit: Int = shownLimit) -> [String] { Self.capped(messages, limit: limit) }

  /// `listed` on one line, separated by `; `.
  public var cappedSummary: String { listed().joined(separator: "; ") }

  /// The first `limit` of `messages`, then `and N more` for the rest.
  public static func capped(_ messages: [String], limit: Int = shownLimit) -> [String] {
    guard messages.count > limit, limit >= 0 else { return messages }
    return Array(messages.prefix(limit)) + ["and \(messages.count - limit) more"]
  }
}
