import DeckValues
import FoundationEssentials

/// The preferences of one category (`PlayerDetails`, `SchoolPreferences`, `NotificationSettings`,
/// `DashboardWidgetVisibility`, `HomeLocation`).
///
/// JSON: decoding goes through `read(_:)`, so keys that are missing (or `null`) take the defaults,
/// unknown keys are ignored, and a wrongly typed field fails with a message naming it. Encoding
/// omits unset optionals rather than writing `null` (the stored and sent shape is the spec's; an
/// absent key and `null` read back the same).
public protocol PrefsModel: Codable, Sendable, Equatable {
  static var category: PrefsCategory { get }
  /// What a user who never saved this category sees.
  static var defaults: Self { get }
  /// `json` as this category's value, with every wrongly typed field named; the value falls back to
  /// the default for those fields.
  static func read(_ json: JSONValue) -> (value: Self, issues: [ValidationIssue])
  /// `json` as this category's value, normalised, with every problem at once: the fields that do
  /// not read (which take the default) and the problems of the values that do.
  static func readAll(_ json: JSONValue) -> (value: Self, issues: [ValidationIssue])
  /// The problems of `json`'s keys that `read` lets pass: unknown keys, and with `.complete`,
  /// missing or null keys the model always has (see `ShapeCheck`).
  static func shapeIssues(_ json: JSONValue, _ check: ShapeCheck) -> [ValidationIssue]
  /// The value with text trimmed, empty text cleared and spellings canonical (see `FieldRule`);
  /// applied before validation.
  func normalized() -> Self
  /// Every problem of the value as it is (normalise first to accept user spellings).
  func validate() -> Validation
  /// What differs from `self` to `new`, for "what changed" output and history entries.
  func changes(to new: Self) -> [FieldChange]
  /// The value in the category-tagged enum.
  var tagged: PrefsValue { get }
}

extension PrefsModel {
  public init(from decoder: any Decoder) throws {
    let (value, issues) = Self.read(try JSONValue(from: decoder))
    guard issues.isEmpty else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: decoder.codingPath, debugDescription: Validation(issues).summary))
    }
    self = value
  }

  /// The normalised value, or every problem it has: what a client sends and what the sandbox stores.
  public func validated() throws(Validation) -> Self {
    let normalized = normalized()
    try normalized.validate().check()
    return normalized
  }

  /// The issue for a JSON document that is not an object.
  static func notAnObject(_ json: JSONValue) -> ValidationIssue {
    .invalid(category.rawValue, json.literal, "is not a JSON object", allowed: "{\"key\": value, …}")
  }
}

/// A category whose value is a fixed set of fields, described once by its catalog (`fields`): every
/// category except school. JSON coding, normalisation, validation, the diff and `key=value`
/// assignments are all derived from the catalog.
public protocol FieldRecord: PrefsModel {
  /// Every field, in form order.
  static var fields: [Field<Self>] { get }
  /// The value after each field is normalised, with what depends on other fields normalised
  /// too (player: positions spelt as the sport spells them).
  func normalizedAcrossFields() -> Self
  /// The problems that involve more than one field (player: a position of another sport).
  var crossFieldIssues: [ValidationIssue] { get }
}

extension FieldRecord {
  /// The catalog entries.
  public static var specs: [FieldSpec] { fields.map(\.spec) }

  public static func read(_ json: JSONValue) -> (value: Self, issues: [ValidationIssue]) {
    guard case .object(let object) = json else { return (defaults, [notAnObject(json)]) }
    var value = defaults
    var issues: [ValidationIssue] = []
    var badContainers: Set<String> = []
    for field in fields {
      var source = object
      if let container = field.spec.container {
        switch object[container] {
        case .object(let inner): source = inner
        case nil, .null: continue
        case .some(let other):
          if badContainers.insert(container).inserted {
            issues.append(.invalid(container, other.literal, "is not a JSON object", allowed: "{\"name\": true, …}"))
          }
          continue
        }
      }
      guard let raw = source[field.spec.key] else { continue }
      switch field.spec.coerce(raw) {
      case .success(let typed) where typed != .null: field.write(&value, typed)
      case .success: continue
      case .failure(let issue): issues.append(issue)
      }
    }
    return (value, issues)
  }

  public static func readAll(_ json: JSONValue) -> (value: Self, issues: [ValidationIssue]) {
    let (value, issues) = read(json)
    let normalized = value.normalized()
    return (normalized, issues + normalized.validate().issues)
  }

  /// The value as a JSON object in the spec's shape, unset optionals left out.
  public var json: JSONValue {
    var object = JSONObject()
    for field in Self.fields {
      let value = field.read(self)
      guard value != .null else { continue }
      if let container = field.spec.container {
        var inner = object[container]?.objectValue ?? JSONObject()
        inner[field.spec.key] = value
        object[container] = .object(inner)
      } else {
        object[field.spec.key] = value
      }
    }
    return .object(object)
  }

  public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }

  public func normalizedAcrossFields() -> Self { self }
  public var crossFieldIssues: [ValidationIssue] { [] }

  public func normalized() -> Self {
    var copy = self
    for field in Self.fields { field.write(&copy, field.spec.normalize(field.read(self))) }
    return copy.normalizedAcrossFields()
  }

  public func validate() -> Validation {
    Validation(Self.fields.flatMap { $0.spec.check($0.read(self)) } + crossFieldIssues)
  }

  public func changes(to new: Self) -> [FieldChange] {
    Self.fields.compactMap { field in
      let old = field.read(self)
      let updated = field.read(new)
      guard old != updated else { return nil }
      return FieldChange(field: field.spec.key, old: field.spec.display(old), new: field.spec.display(updated))
    }
  }

  /// The field a user's name refers to; see `PrefsCategory.field(named:)`.
  public static func field(named name: String) throws(Validation) -> Field<Self> {
    try NameMatching.resolve(name, in: fields, what: category.entryNoun) { [$0.spec.key] + $0.spec.aliases }
  }

  /// The value of the field with JSON key `key`, `.null` when unset or unknown.
  public subscript(key: String) -> JSONValue {
    Self.fields.first { $0.spec.key == key }?.read(self) ?? .null
  }

  /// Keys of nested fields whose parent toggle is off: their values are kept but have no effect, and
  /// displays show them as inactive.
  public var inactiveFields: Set<String> {
    Set(Self.specs.filter { $0.parent.map { self[$0] == .bool(false) } ?? false }.map(\.key))
  }
}
