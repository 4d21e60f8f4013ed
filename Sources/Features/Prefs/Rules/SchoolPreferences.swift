import DeckValues

/// The value of a school preference. It is the plain JSON value (`300`, `["D1", "D3"]`, `"medium"`,
/// `true`), not a wrapper object; which case a JSON value reads as depends on the preference type.
public enum PreferenceValue: Sendable, Equatable, Codable {
  case int(Int)
  case strings([String])
  case string(String)
  case bool(Bool)

  /// The JSON type of the value.
  public var kind: FieldKind {
    switch self {
    case .int: .int
    case .strings: .stringList
    case .string: .string
    case .bool: .bool
    }
  }

  public var json: JSONValue {
    switch self {
    case .int(let value): value.json
    case .strings(let value): value.json
    case .string(let value): value.json
    case .bool(let value): value.json
    }
  }

  /// `json` read as a value of `kind` (see `FieldKind.coerce`), or nil when it has another type.
  public init?(json: JSONValue, kind: FieldKind) {
    switch kind.coerce(json) {
    case .number(let number)?:
      guard let value = number.int else { return nil }
      self = .int(value)
    case .string(let value): self = .string(value)
    case .bool(let value): self = .bool(value)
    case .some(let list) where kind == .stringList:
      guard let strings = [String](json: list) else { return nil }
      self = .strings(strings)
    default: return nil
    }
  }

  /// Decodes whichever of the four JSON types is there; `SchoolPreference` decodes by its `type`.
  public init(from decoder: any Decoder) throws {
    let json = try JSONValue(from: decoder)
    let read = [FieldKind.bool, .int, .string, .stringList].lazy.compactMap { Self(json: json, kind: $0) }.first
    guard let read else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath, debugDescription: "\(json.literal) is not a preference value"))
    }
    self = read
  }

  public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
}

/// One school preference: a criterion with its priority (1 = highest) and dealbreaker flag.
public struct SchoolPreference: Sendable, Equatable, Codable, Identifiable {
  public let id: String
  public var category: PreferenceCategory
  public var type: SchoolPreferenceType
  public var value: PreferenceValue
  public var priority: Int
  public var isDealbreaker: Bool

  /// A preference; `category` defaults to the type's.
  public init(
    id: String, type: SchoolPreferenceType, value: PreferenceValue, priority: Int, isDealbreaker: Bool = false,
    category: PreferenceCategory? = nil
  ) {
    self.id = id
    self.category = category ?? type.category
    self.type = type
    self.value = value
    self.priority = priority
    self.isDealbreaker = isDealbreaker
  }

  /// Decodes `value` according to `type`; see `read(_:position:)`.
  public init(from decoder: any Decoder) throws {
    let (preference, issues) = Self.read(try JSONValue(from: decoder), position: 1)
    guard let preference, issues.isEmpty else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: decoder.codingPath, debugDescription: Validation(issues).summary))
    }
    self = preference
  }

  /// How messages name a part of the preference at `position` (1-based) in the list:
  /// `preference 2 id`, or for the value, its type: `preference 2 max_distance_miles`.
  static func field(_ position: Int, _ part: String) -> String { "preference \(position) \(part)" }

  /// `json` as a preference, naming every problem. `id`, `type`, `value` and `priority` are
  /// required; a missing `category` is the type's and a missing `isDealbreaker` is false.
  static func read(_ json: JSONValue, position: Int) -> (SchoolPreference?, [ValidationIssue]) {
    guard case .object(let object) = json else {
      let allowed = "{\"id\": …, \"category\": …, \"type\": …, \"value\": …, \"priority\": …, \"isDealbreaker\": …}"
      return (nil, [.invalid("preference \(position)", json.literal, "is not a JSON object", allowed: allowed)])
    }
    var issues: [ValidationIssue] = []
    func part<Value: FieldValue>(_ key: String, _ allowed: String, _ fallback: Value? = nil) -> Value? {
      switch object[key] {
      case nil, .null:
        if fallback == nil { issues.append(.missing(field(position, key), allowed: allowed)) }
        return fallback
      case .some(let raw):
        if let value = Value.kind.coerce(raw).flatMap(Value.init(json:)) { return value }
        issues.append(.wrongType(field(position, key), raw.literal, expected: Value.kind.noun, allowed: allowed))
        return nil
      }
    }
    func oneOf<Item: RawRepresentable<String> & CaseIterable>(_ key: String, _ text: String?) -> Item? {
      guard let text else { return nil }
      if let item = Item(rawValue: text) { return item }
      let allowed = FieldRule.orList(Item.allCases.map(\.rawValue))
      issues.append(.notAllowed(field(position, key), JSONValue.quoted(text), allowed: allowed))
      return nil
    }

    let id: String? = part("id", "a unique id")
    let types = FieldRule.orList(SchoolPreferenceType.allCases.map(\.rawValue))
    let type: SchoolPreferenceType? = oneOf("type", part("type", types))
    let categories = FieldRule.orList(PreferenceCategory.allCases.map(\.rawValue))
    let category: PreferenceCategory? =
      [nil, .null].contains(object["category"]) ? type?.category : oneOf("category", part("category", categories))
    let priority: Int? = part("priority", "a whole number from 1")
    let isDealbreaker: Bool? = part("isDealbreaker", "true or false", false)
    var value: PreferenceValue?
    if let type {
      let name = field(position, type.rawValue)
      switch type.spec.coerce(object["value"] ?? .null, field: name) {
      case .success(.null): issues.append(.missing(name, allowed: type.allowed))
      case .success(let typed): value = PreferenceValue(json: typed, kind: type.valueKind)
      case .failure(let issue): issues.append(issue)
      }
    }
    guard let id, let type, let category, let value, let priority, let isDealbreaker else { return (nil, issues) }
    let preference = SchoolPreference(
      id: id, type: type, value: value, priority: priority, isDealbreaker: isDealbreaker, category: category)
    return (preference, issues)
  }

  /// `2. D1, D3 (dealbreaker)`: the preference as the list shows it.
  public var summary: String {
    "\(priority). \(type.display(value))" + (isDealbreaker ? " (dealbreaker)" : "")
  }
}

/// The school preference list (spec 2B). `lastUpdated` is a timestamp the caller stamps; the list
/// operations leave it alone.
public struct SchoolPreferences: PrefsModel {
  public var preferences: [SchoolPreference]
  public var templateUsed: String?
  public var lastUpdated: String?

  public init(preferences: [SchoolPreference] = [], templateUsed: String? = nil, lastUpdated: String? = nil) {
    self.preferences = preferences
    self.templateUsed = templateUsed
    self.lastUpdated = lastUpdated
  }

  public static let category = PrefsCategory.school
  /// No preferences.
  public static let defaults = SchoolPreferences()
  public var tagged: PrefsValue { .school(self) }

  public static func read(_ json: JSONValue) -> (value: SchoolPreferences, issues: [ValidationIssue]) {
    guard case .object(let object) = json else { return (defaults, [notAnObject(json)]) }
    var value = defaults
    var issues: [ValidationIssue] = []
    switch object["preferences"] {
    case nil, .null: break
    case .array(let items):
      for (offset, item) in items.enumerated() {
        let (preference, problems) = SchoolPreference.read(item, position: offset + 1)
        issues += problems
        if let preference { value.preferences.append(preference) }
      }
    case .some(let other):
      issues.append(.wrongType("preferences", other.literal, expected: "a list", allowed: "a list of preferences"))
    }
    for (key, path) in [("templateUsed", \SchoolPreferences.templateUsed), ("lastUpdated", \.lastUpdated)] {
      switch object[key] {
      case nil, .null: break
      case .string(let text): value[keyPath: path] = text
      case .some(let other): issues.append(.wrongType(key, other.literal, expected: "text", allowed: "text"))
      }
    }
    return (value, issues)
  }
}
