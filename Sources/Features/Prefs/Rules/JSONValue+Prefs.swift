import DeckValues
import FoundationEssentials

/// Prefs reads stored data, import files and `key=value` input through DeckValues' JSONValue
/// before it checks a value against a field's type, so a wrongly typed field can be named (with
/// its value) instead of failing the whole document. A number written as an integer (`7`) and
/// one written as a Double (`7.5`, `7.0`) are told apart: a field of whole numbers accepts a whole
/// Double, and a field of numbers holds Doubles only.
extension JSONValue {
  /// Decodes `data` as one JSON document, or nil when it is not JSON.
  public static func parse(_ data: Data) -> JSONValue? {
    try? JSONDecoder().decode(JSONValue.self, from: data)
  }

  /// The number when it is written as an integer that fits Int (`7`), else nil.
  public var wholeNumber: Int? {
    guard case .number(let number) = self else { return nil }
    return number.int
  }

  /// The number when it is written as a Double (`7.5`, `7.0`, `1e3`), else nil.
  public var doubleNumber: Double? {
    guard case .number(let number) = self, number.int == nil else { return nil }
    return number.double
  }

  /// The value as it appears in a message: strings quoted, long text and lists shortened.
  public var literal: String {
    switch self {
    case .null: "null"
    case .bool(let value): String(value)
    case .number(let number): number.literal
    case .string(let value): Self.quoted(value)
    case .array(let items):
      "[" + items.prefix(5).map(\.literal).joined(separator: ", ") + (items.count > 5 ? ", …]" : "]")
    case .object: "{…}"
    }
  }

  /// What kind of JSON value this is, for "found …" messages.
  public var kindDescription: String {
    switch self {
    case .null: "null"
    case .bool: "true or false"
    case .number: "a number"
    case .string: "text"
    case .array: "a list"
    case .object: "an object"
    }
  }

  /// `text` in double quotes with JSON escapes, cut to 60 characters.
  static func quoted(_ text: String) -> String {
    JSONText.quoted(text.count > 60 ? String(text.prefix(60)) + "…" : text)
  }
}
