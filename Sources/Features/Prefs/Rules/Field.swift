import DeckValues

/// One settable key of a category, as the catalog describes it: JSON key and type, the form section
/// it sits in, a label, what it accepts and how it nests. Completion, editor comments, grouped
/// output, the `key=value` parser, JSON coding, normalisation, validation and the diff all read it.
public struct FieldSpec: Sendable, Equatable {
  /// The JSON key (for school preferences: the preference type).
  public let key: String
  public let label: String
  /// The title of the form section the field belongs to.
  public internal(set) var section: String
  public let kind: FieldKind
  /// Whether the field may be absent (JSON: omitted); `key=` clears only these.
  public let isOptional: Bool
  public let rule: FieldRule
  /// The key of the toggle this field is nested under; the field has no effect while it is off.
  public let parent: String?
  /// The JSON object holding the field (dashboard: `statsCards` or `widgets`); nil at the top level.
  public let container: String?
  /// Other names `key=value` accepts for this field (player: `height`).
  public let aliases: [String]

  public init(
    key: String, label: String, section: String, kind: FieldKind, isOptional: Bool, rule: FieldRule,
    parent: String? = nil, container: String? = nil, aliases: [String] = []
  ) {
    self.key = key
    self.label = label
    self.section = section
    self.kind = kind
    self.isOptional = isOptional
    self.rule = rule
    self.parent = parent
    self.container = container
    self.aliases = aliases
  }

  /// What the field accepts, e.g. `0.0–5.0` or `L, R or S`.
  public var allowed: String { rule.allowed(for: kind) }
  /// Values to offer for completion (enumerations, state codes, true/false).
  public var completions: [String] { rule.completions(for: kind) }

  /// What a value of the field is called in "is not …" messages.
  var expected: String { rule == .height ? "a height such as 5'11\" or 71" : kind.noun }

  /// Typed text as the field's value: `.null` for empty text, or the issue naming the field.
  public func parse(_ text: String) -> Result<JSONValue, ValidationIssue> {
    let text = text.trimmed
    if text.isEmpty { return isOptional ? .success(.null) : .failure(clearingIssue) }
    guard let value = rule.parse(text, as: kind) else {
      return .failure(.wrongType(key, JSONValue.quoted(text), expected: expected, allowed: allowed))
    }
    return .success(value)
  }

  /// The issue for clearing a field that always has a value.
  var clearingIssue: ValidationIssue {
    ValidationIssue(
      field: key, value: "", problem: "cannot be cleared", advice: "it always has a value (\(allowed))",
      allowed: allowed)
  }

  /// A decoded JSON value as the field's value (`.null` when absent), or the issue naming the field
  /// (as `field` when given).
  func coerce(_ value: JSONValue, field: String? = nil) -> Result<JSONValue, ValidationIssue> {
    if value == .null { return .success(.null) }
    guard let typed = kind.coerce(value) else {
      let nonFinite = value.doubleNumber.map { !$0.isFinite } ?? false
      let expected = nonFinite ? "a finite number" : kind.noun
      return .failure(.wrongType(field ?? key, value.literal, expected: expected, allowed: allowed))
    }
    return .success(typed)
  }

  /// The value normalised (`FieldRule.normalize`); empty text or lists become `.null` when optional.
  func normalize(_ value: JSONValue) -> JSONValue {
    let normalized = rule.normalize(value)
    guard isOptional else { return normalized }
    switch normalized {
    case .string(let text) where text.isEmpty: return .null
    case .array(let items) where items.isEmpty: return .null
    default: return normalized
    }
  }

  /// The problems of the field's current value.
  func check(_ value: JSONValue, field: String? = nil) -> [ValidationIssue] {
    let name = field ?? key
    switch coerce(value, field: name) {
    case .success(.null): return isOptional ? [] : [.missing(name, allowed: allowed)]
    case .success(let typed): return rule.check(typed, field: name, kind: kind)
    case .failure(let issue): return [issue]
    }
  }

  /// The value as shown to users (text plain, lists comma-separated, heights as `5'11"`); nil when unset.
  public func display(_ value: JSONValue) -> String? { rule.display(value) }
}

/// A catalog entry bound to the property of `Record` it reads and writes.
public struct Field<Record>: Sendable {
  public internal(set) var spec: FieldSpec
  let read: @Sendable (Record) -> JSONValue
  /// Stores a value already of the field's kind; `.null` clears an optional field and is ignored otherwise.
  let write: @Sendable (inout Record, JSONValue) -> Void

  init(
    spec: FieldSpec, read: @escaping @Sendable (Record) -> JSONValue,
    write: @escaping @Sendable (inout Record, JSONValue) -> Void
  ) {
    self.spec = spec
    self.read = read
    self.write = write
  }

  /// An optional property.
  init<Value: FieldValue>(
    _ key: String, _ path: any WritableKeyPath<Record, Value?> & Sendable, _ label: String, _ rule: FieldRule,
    parent: String? = nil, aliases: [String] = []
  ) {
    self.init(
      spec: FieldSpec(
        key: key, label: label, section: "", kind: Value.kind, isOptional: true, rule: rule, parent: parent,
        aliases: aliases),
      read: { $0[keyPath: path]?.json ?? .null },
      write: { $0[keyPath: path] = Value(json: $1) })
  }

  /// A property that always has a value.
  init<Value: FieldValue>(
    _ key: String, _ path: any WritableKeyPath<Record, Value> & Sendable, _ label: String, _ rule: FieldRule = .any,
    parent: String? = nil, container: String? = nil, aliases: [String] = []
  ) {
    self.init(
      spec: FieldSpec(
        key: key, label: label, section: "", kind: Value.kind, isOptional: false, rule: rule, parent: parent,
        container: container, aliases: aliases),
      read: { $0[keyPath: path].json },
      write: { record, value in if let value = Value(json: value) { record[keyPath: path] = value } })
  }

  /// `fields` placed in the form section `title`.
  static func section(_ title: String, _ fields: [Field]) -> [Field] {
    fields.map { field in
      var field = field
      field.spec.section = title
      return field
    }
  }
}

/// The Swift types fields are stored as, with their JSON kind.
protocol FieldValue: Sendable {
  static var kind: FieldKind { get }
  var json: JSONValue { get }
  init?(json: JSONValue)
}

extension Int: FieldValue {
  static var kind: FieldKind { .int }
  var json: JSONValue { .int(self) }
  init?(json: JSONValue) {
    guard let value = json.wholeNumber else { return nil }
    self = value
  }
}

extension Double: FieldValue {
  static var kind: FieldKind { .double }
  var json: JSONValue { .double(self) }
  init?(json: JSONValue) {
    guard let value = json.doubleNumber else { return nil }
    self = value
  }
}

extension Bool: FieldValue {
  static var kind: FieldKind { .bool }
  var json: JSONValue { .bool(self) }
  init?(json: JSONValue) {
    guard case .bool(let value) = json else { return nil }
    self = value
  }
}

extension String: FieldValue {
  static var kind: FieldKind { .string }
  var json: JSONValue { .string(self) }
  init?(json: JSONValue) {
    guard case .string(let value) = json else { return nil }
    self = value
  }
}

extension Array: FieldValue where Element == String {
  static var kind: FieldKind { .stringList }
  var json: JSONValue { .array(map(JSONValue.string)) }
  init?(json: JSONValue) {
    guard case .array(let items) = json else { return nil }
    var strings: [String] = []
    for item in items {
      guard case .string(let text) = item else { return nil }
      strings.append(text)
    }
    self = strings
  }
}
