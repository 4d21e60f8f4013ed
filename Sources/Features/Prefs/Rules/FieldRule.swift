import DeckValues

/// What a field accepts beyond its JSON type. One description serves validation, the `allowed`
/// text of messages and editor comments, normalisation of input, parsing of typed text and completion.
public enum FieldRule: Sendable, Equatable {
  /// Any value of the field's type (booleans).
  case any
  /// Free text, not empty, at most `maxTextLength` characters (Unicode code points, as JSON Schema counts).
  case text
  case intRange(ClosedRange<Int>)
  case doubleRange(ClosedRange<Double>)
  /// Inches in `Height.range`; typed input may also be written `5'11"`.
  case height
  /// One of these exact values; input is matched case-insensitively and stored in this spelling.
  case oneOf([String])
  /// A code of `USStates`; input is upper-cased.
  case usState
  /// `12345` or `12345-6789`.
  case zip
  /// `name@example.com`.
  case email
  /// An `http://` or `https://` URL.
  case webURL
  /// A social handle: 1–30 letters, digits, `_` or `.`; a leading `@` is dropped from input.
  case handle
  /// 7–15 digits with optional `+`, spaces, dashes, dots or parentheses.
  case phone
  /// `HH:MM`, 00:00–23:59; `7:30` is padded to `07:30`.
  case time
  /// A position of the player's primary sport (text, checked against the sport by
  /// `PlayerDetails`: see `Sport`).
  case position

  /// The longest free text a field keeps.
  public static let maxTextLength = 200

  /// What a field with this rule accepts, as shown after "allowed"/"use" and in editor comments.
  public func allowed(for kind: FieldKind) -> String {
    switch self {
    case .any: kind.noun
    case .text: "text of up to \(Self.maxTextLength) characters"
    case .intRange(let range): "\(range.lowerBound)–\(range.upperBound)"
    case .doubleRange(let range): "\(range.lowerBound)–\(range.upperBound)"
    case .height:
      "\(Height.range.lowerBound)–\(Height.range.upperBound) inches "
        + "(\(Height.format(inches: Height.range.lowerBound))–\(Height.format(inches: Height.range.upperBound)))"
    case .oneOf(let values): Self.orList(values)
    case .usState: "a 2-letter US state or DC code, e.g. CA"
    case .zip: "5 digits, optionally followed by -dddd, e.g. 02139 or 02139-4307"
    case .email: "an address like name@example.com"
    case .webURL: "an http:// or https:// URL"
    case .handle: "1–30 letters, digits, _ or . (no @, no spaces)"
    case .phone: "7–15 digits, optionally with +, spaces, dashes, dots or parentheses"
    case .time: "HH:MM from 00:00 to 23:59"
    case .position: "a position of the primary sport, e.g. Shortstop (SS) for Baseball"
    }
  }

  /// Values to offer for completion and in editor comments.
  public func completions(for kind: FieldKind) -> [String] {
    switch self {
    case .oneOf(let values): values
    case .usState: USStates.codes
    case .position: Sport.allPositions
    case _ where kind == .bool: ["true", "false"]
    default: []
    }
  }

  /// Typed text as a value of `kind`, or nil when it cannot be read as one.
  func parse(_ text: String, as kind: FieldKind) -> JSONValue? {
    if self == .height && kind == .int { return Height.parseInches(text).map(JSONValue.int) }
    return kind.parse(text)
  }

  /// Text trimmed and put in its stored spelling (see the cases).
  func normalize(_ text: String) -> String {
    let text = text.trimmed
    switch self {
    case .usState: return text.uppercased()
    case .handle: return text.drop(while: { $0 == "@" }).trimmed
    case .time: return TextFormat.paddedTime(text)
    case .oneOf(let values): return values.first { $0.lowercased() == text.lowercased() } ?? text
    default: return text
    }
  }

  /// Text and list items normalised; list items that end up blank and repeated items are dropped.
  func normalize(_ value: JSONValue) -> JSONValue {
    switch value {
    case .string(let text): return .string(normalize(text))
    case .array(let items):
      var seen: Set<String> = []
      return .array(
        items.compactMap { item in
          guard case .string(let text) = item else { return item }
          let normalized = normalize(text)
          return normalized.isEmpty || !seen.insert(normalized).inserted ? nil : .string(normalized)
        })
    default: return value
    }
  }

  /// The problems of a value already of the field's kind; `field` names it in the messages.
  func check(_ value: JSONValue, field: String, kind: FieldKind) -> [ValidationIssue] {
    let allowed = allowed(for: kind)
    let outOfRange: [ValidationIssue] = [.outOfRange(field, value.literal, allowed: allowed)]
    switch (self, value.wholeNumber, value.doubleNumber) {
    case (.intRange(let range), let number?, _): return range.contains(number) ? [] : outOfRange
    case (.height, let number?, _): return Height.range.contains(number) ? [] : outOfRange
    case (.doubleRange(let range), _, let number?): return range.contains(number) ? [] : outOfRange
    default: break
    }
    switch (self, value) {
    case (_, .string(let text)):
      return checkText(text, field: field, allowed: allowed).map { [$0] } ?? []
    case (_, .array(let items)) where items.isEmpty:
      let advice = if case .oneOf = self { "at least one of \(allowed)" } else { "at least one value" }
      return [.invalid(field, "[]", "is empty", allowed: advice)]
    case (_, .array(let items)):
      return items.flatMap { check($0, field: field, kind: .string) }
    default:
      return []
    }
  }

  private func checkText(_ text: String, field: String, allowed: String) -> ValidationIssue? {
    let value = JSONValue.quoted(text)
    func require(_ isValid: Bool, _ problem: String) -> ValidationIssue? {
      isValid ? nil : .invalid(field, value, problem, allowed: allowed)
    }
    switch self {
    case .text, .position:
      return text.isEmpty
        ? .invalid(field, value, "is empty", allowed: allowed)
        : require(
          text.unicodeScalars.count <= Self.maxTextLength, "is too long (\(text.unicodeScalars.count) characters)")
    case .oneOf(let values):
      return values.contains { $0.unicodeScalars.elementsEqual(text.unicodeScalars) }
        ? nil : .notAllowed(field, value, allowed: allowed)
    case .usState: return require(USStates.contains(text), "is not a US state code")
    case .zip: return require(TextFormat.isZIP(text), "is not a ZIP code")
    case .email: return require(TextFormat.isEmail(text), "is not an email address")
    case .webURL: return require(TextFormat.isWebURL(text), "is not a web address")
    case .handle: return require(TextFormat.isHandle(text), "is not a handle")
    case .phone: return require(TextFormat.isPhone(text), "is not a phone number")
    case .time: return require(TextFormat.isTime(text), "is not a time of day")
    case .any, .intRange, .doubleRange, .height: return nil
    }
  }

  /// A value as shown in change lists: text plain, lists comma-separated, heights as `5'11"`.
  func display(_ value: JSONValue) -> String? {
    if self == .height, let inches = value.wholeNumber { return Height.format(inches: inches) }
    return switch value {
    case .null: nil
    case .string(let text): text
    case .array(let items): items.compactMap { display($0) }.joined(separator: ", ")
    case .object: value.literal
    case .bool, .number: value.literal
    }
  }

  /// `a`, `a or b`, `a, b or c`.
  static func orList(_ items: [String]) -> String {
    guard let last = items.last else { return "" }
    return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " or " + last
  }
}
