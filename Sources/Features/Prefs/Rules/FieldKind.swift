import DeckValues
import FoundationEssentials

/// The JSON type of a field's value (and of a school preference's value).
public enum FieldKind: String, Sendable, Equatable, Codable, CaseIterable {
  case int = "integer"
  case double = "number"
  case bool = "boolean"
  case string = "string"
  case stringList = "array of strings"

  /// The JSON type's name, as shown in catalogs: `integer`, `number`, `boolean`, `string`, `array of strings`.
  public var jsonType: String { rawValue }

  /// What a value of this kind is called in messages.
  public var noun: String {
    switch self {
    case .int: "a whole number"
    case .double: "a number"
    case .bool: "true or false"
    case .string: "text"
    case .stringList: "a list of text"
    }
  }

  /// `value` as this kind, or nil when it has another JSON type. A whole `5.0` is accepted as the
  /// integer 5 and an integer as a number; non-finite numbers and out-of-range integers are refused.
  public func coerce(_ value: JSONValue) -> JSONValue? {
    switch (self, value) {
    case (.bool, .bool), (.string, .string): value
    case (.int, .number):
      value.wholeNumber != nil ? value : value.doubleNumber.flatMap { Int(exactly: $0) }.map(JSONValue.int)
    case (.double, .number):
      if let number = value.doubleNumber {
        number.isFinite ? value : nil
      } else {
        value.wholeNumber.map { .double(Double($0)) }
      }
    case (.stringList, .array(let items)):
      items.allSatisfy { if case .string = $0 { true } else { false } } ? value : nil
    default: nil
    }
  }

  /// Text typed by a user (`key=value`, `TYPE VALUE`) as this kind: whole numbers, finite numbers,
  /// booleans as true/false/yes/no/on/off/1/0, lists comma-separated with blanks dropped.
  public func parse(_ text: String) -> JSONValue? {
    switch self {
    case .int: Int(text).map(JSONValue.int)
    case .double: Double(text).flatMap { $0.isFinite ? .double($0) : nil }
    case .bool: Self.booleans[text.lowercased()].map(JSONValue.bool)
    case .string: .string(text)
    case .stringList:
      .array(text.split(separator: ",").map { $0.trimmed }.filter { !$0.isEmpty }.map(JSONValue.string))
    }
  }

  static let booleans: [String: Bool] = [
    "true": true, "yes": true, "on": true, "1": true,
    "false": false, "no": false, "off": false, "0": false,
  ]
}

extension StringProtocol {
  /// The text without leading and trailing white space and newlines.
  var trimmed: String {
    guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return String(self[first...last])
  }
}
