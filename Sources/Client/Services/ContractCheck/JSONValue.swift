import FoundationEssentials

/// A JSON value that keeps null, booleans, numbers, strings, arrays and objects apart (a boolean is
/// never a number), with numbers kept as written, so no value from the network can overflow.
enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case number(JSONNumber)
  case string(String)
  case array([JSONValue])
  case object(JSONObject)

  /// The JSON Schema type name of this value ("integer" for an integral number).
  var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .number(let number): number.isInteger ? "integer" : "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }

  var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  var objectValue: JSONObject? {
    if case .object(let value) = self { return value }
    return nil
  }

  var arrayValue: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  var numberValue: JSONNumber? {
    if case .number(let value) = self { return value }
    return nil
  }

  subscript(key: String) -> JSONValue? {
    objectValue?[key]
  }

  /// The value as it would be written in JSON, compact (object keys in their order).
  var jsonText: String {
    switch self {
    case .null: "null"
    case .bool(let value): value ? "true" : "false"
    case .number(let number): number.literal
    case .string(let value): JSONValue.quoted(value)
    case .array(let items): "[" + items.map(\.jsonText).joined(separator: ",") + "]"
    case .object(let object):
      "{" + object.entries.map { JSONValue.quoted($0.key) + ":" + $0.value.jsonText }.joined(separator: ",") + "}"
    }
  }

  /// A short description of what came back: `number 42`, `string "abc"`, `array (3 items)`.
  var summary: String {
    switch self {
    case .null: "null"
    case .bool(let value): "boolean \(value)"
    case .number(let number): "\(number.isInteger ? "integer" : "number") \(JSONValue.truncated(number.literal, 40))"
    case .string(let value): "string \(JSONValue.truncated(JSONValue.quoted(value), 60))"
    case .array(let items): "array (\(items.count) item\(items.count == 1 ? "" : "s"))"
    case .object(let object):
      JSONValue.truncated(
        "object {" + object.entries.prefix(6).map(\.key).joined(separator: ", ")
          + (object.entries.count > 6 ? ", …" : "") + "}", 80)
    }
  }

  /// A short rendering of a value the contract names (an enum member, a const).
  var shortText: String {
    switch self {
    case .string(let value): JSONValue.truncated(value, 40)
    default: JSONValue.truncated(jsonText, 40)
    }
  }

  static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  /// The text cut to at most `limit` characters, with an ellipsis when cut.
  static func truncated(_ text: String, _ limit: Int) -> String {
    guard text.count > limit, limit > 1 else { return text }
    return String(text.prefix(limit - 1)) + "…"
  }
}

/// A JSON number as written. `isInteger` follows JSON Schema: 3 and 3.0 are integers.
struct JSONNumber: Sendable {
  /// The number's text (the JSON literal, or the YAML value's Swift rendering).
  let literal: String
  /// The value as a Double: ±infinity when out of range, never a trap.
  let double: Double
  /// The value as an Int when it is an integer that fits.
  let int: Int?

  init(literal: String) {
    self.literal = literal
    let parsedInt = Int(literal)
    self.int = parsedInt
    if let parsedInt {
      self.double = Double(parsedInt)
    } else {
      self.double = Double(literal) ?? .nan
    }
  }

  init(_ value: Int) {
    self.literal = String(value)
    self.int = value
    self.double = Double(value)
  }

  init(_ value: Double) {
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
  var isInteger: Bool {
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
  static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
    if let left = lhs.int, let right = rhs.int { return left == right }
    if lhs.double.isFinite || rhs.double.isFinite { return lhs.double == rhs.double }
    return lhs.literal == rhs.literal
  }
}

/// A JSON object: its members in the order they came, looked up by key (a repeated key keeps its
/// first place and its last value).
struct JSONObject: Sendable, Equatable {
  private(set) var keys: [String] = []
  private var values: [String: JSONValue] = [:]

  init() {}

  init(_ entries: [(String, JSONValue)]) {
    for (key, value) in entries { self[key] = value }
  }

  subscript(key: String) -> JSONValue? {
    get { values[key] }
    set {
      if let newValue {
        if values.updateValue(newValue, forKey: key) == nil { keys.append(key) }
      } else if values.removeValue(forKey: key) != nil {
        keys.removeAll { $0 == key }
      }
    }
  }

  var entries: [(key: String, value: JSONValue)] {
    keys.compactMap { key in values[key].map { (key: key, value: $0) } }
  }

  var count: Int { keys.count }

  /// Objects compare by members, not order.
  static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    lhs.values == rhs.values
  }
}

/// JSON paths as findings show them: `$`, `$.items[0].name`, `$["a b"]`.
enum JSONPath {
  static let root = "$"

  static func appending(_ path: String, key: String) -> String {
    if isIdentifier(key) { return path + "." + key }
    return path + "[" + JSONValue.quoted(key) + "]"
  }

  static func appending(_ path: String, index: Int) -> String {
    path + "[\(index)]"
  }

  private static func isIdentifier(_ key: String) -> Bool {
    guard let first = key.unicodeScalars.first else { return false }
    let letters = { (scalar: Unicode.Scalar) in
      (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || scalar == "_" || scalar == "$"
    }
    return letters(first) && key.unicodeScalars.allSatisfy { letters($0) || ($0 >= "0" && $0 <= "9") }
  }
}

extension JSONValue {
  /// `%XX` sequences as the bytes they stand for; nil when one is malformed or the bytes are not UTF-8.
  static func percentDecoded(_ text: String) -> String? {
    var bytes: [UInt8] = []
    var utf8 = text.utf8.makeIterator()
    while let byte = utf8.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = utf8.next(), let low = utf8.next(),
        let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
      else { return nil }
      bytes.append(value)
    }
    return String(validating: bytes, as: UTF8.self)
  }

  /// The value a local reference of this document ("#/a/b", JSON pointer, percent-encoded) points at.
  func resolve(_ reference: String) -> JSONValue? {
    guard reference.hasPrefix("#") else { return nil }
    let pointer = Self.percentDecoded(String(reference.dropFirst())) ?? String(reference.dropFirst())
    if pointer.isEmpty { return self }
    guard pointer.hasPrefix("/") else { return nil }
    var value = self
    for token in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
      let key = String(token).replacing("~1", with: "/").replacing("~0", with: "~")
      switch value {
      case .object(let object):
        guard let next = object[key] else { return nil }
        value = next
      case .array(let items):
        guard let index = Int(key), items.indices.contains(index) else { return nil }
        value = items[index]
      default:
        return nil
      }
    }
    return value
  }
}
