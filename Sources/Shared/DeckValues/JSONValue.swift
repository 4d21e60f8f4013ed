/// A JSON value that keeps null, booleans, numbers, strings, arrays and objects apart (a boolean is
/// never a number), with numbers kept as written (no value from the network can overflow) and
/// objects' keys in order. The one JSON value of the package: the contract check's documents and
/// responses, the tree `--format yaml|csv` is drawn from, the sandbox's error bodies and its
/// explicit nulls.
public enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case number(JSONNumber)
  case string(String)
  case array([JSONValue])
  case object(JSONObject)

  /// An integer.
  public static func int(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }

  /// A Double, spelled as Swift spells it (`7.0`, `3.5`), as a decoder reads a number that is no
  /// integer: its `int` is nil even when the value is whole.
  public static func double(_ value: Double) -> JSONValue { .number(JSONNumber(literal: String(value))) }

  /// The JSON Schema type name of this value ("integer" for an integral number).
  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .number(let number): number.isInteger ? "integer" : "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }

  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  public var objectValue: JSONObject? {
    if case .object(let value) = self { return value }
    return nil
  }

  public var arrayValue: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  public var numberValue: JSONNumber? {
    if case .number(let value) = self { return value }
    return nil
  }

  public subscript(key: String) -> JSONValue? {
    objectValue?[key]
  }

  /// The value as it would be written in JSON, compact (object keys in their order).
  public var jsonText: String {
    switch self {
    case .null: "null"
    case .bool(let value): value ? "true" : "false"
    case .number(let number): number.literal
    case .string(let value): JSONText.quoted(value)
    case .array(let items): "[" + items.map(\.jsonText).joined(separator: ",") + "]"
    case .object(let object):
      "{" + object.entries.map { JSONText.quoted($0.key) + ":" + $0.value.jsonText }.joined(separator: ",") + "}"
    }
  }
}

/// A JSON number as written. `isInteger` follows JSON Schema: 3 and 3.0 are integers.
public struct JSONNumber: Sendable {
  /// The number's text (the JSON literal, or the YAML value's Swift rendering).
  public let literal: String
  /// The value as a Double: ±infinity when out of range, never a trap.
  public let double: Double
  /// The value as an Int when it is an integer that fits.
  public let int: Int?

  public init(literal: String) {
    self.literal = literal
    let parsedInt = Int(literal)
    self.int = parsedInt
    if let parsedInt {
      self.double = Double(parsedInt)
    } else {
      self.double = Double(literal) ?? .nan
    }
  }

  public init(_ value: Int) {
    self.literal = String(value)
    self.int = value
    self.double = Double(value)
  }

  public init(_ value: Double) {
    self.double = value
    if let exact = Int(exactly: value) {
      self.int = exact
      self.literal = String(exact)
    } else {
      self.int = nil
      self.literal = String(value)
    }
  }

  /// An integer per JSON Schema: an integral value (3, 3.0, 1e2, 1e999999, or a huge literal
  /// without a fraction).
  public var isInteger: Bool {
    if int != nil { return true }
    if double.isFinite { return double == double.rounded(.towardZero) }
    // Beyond Double's range: integral when the exponent covers the fraction's digits.
    let parts = literal.lowercased().split(separator: "e", maxSplits: 1)
    let mantissa = parts.first ?? ""
    let fraction = mantissa.split(separator: ".", maxSplits: 1).dropFirst().first ?? ""
    let digits = fraction.reversed().drop { $0 == "0" }.count
    guard digits > 0 else { return true }
    guard parts.count == 2 else { return false }
    let exponent = parts[1]
    guard let value = Int(exponent) else { return !exponent.hasPrefix("-") }
    return value >= digits
  }
}

extension JSONNumber: Equatable {
  /// Numbers compare by value: 1, 1.0 and 1e0 are equal.
  public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
    if let left = lhs.int, let right = rhs.int { return left == right }
    if lhs.double.isFinite || rhs.double.isFinite { return lhs.double == rhs.double }
    return lhs.literal == rhs.literal
  }
}

/// A JSON object: its members in the order they came, looked up by key (a repeated key keeps its
/// first place and its last value).
public struct JSONObject: Sendable, Equatable, ExpressibleByDictionaryLiteral {
  public private(set) var keys: [String] = []
  private var values: [String: JSONValue] = [:]

  public init() {}

  public init(_ entries: [(String, JSONValue)]) {
    for (key, value) in entries { self[key] = value }
  }

  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self.init(elements)
  }

  public subscript(key: String) -> JSONValue? {
    get { values[key] }
    set {
      if let newValue {
        if values.updateValue(newValue, forKey: key) == nil { keys.append(key) }
      } else if values.removeValue(forKey: key) != nil {
        keys.removeAll { $0 == key }
      }
    }
  }

  public var entries: [(key: String, value: JSONValue)] {
    keys.compactMap { key in values[key].map { (key: key, value: $0) } }
  }

  public var count: Int { keys.count }

  /// Objects compare by members, not order.
  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    lhs.values == rhs.values
  }
}
