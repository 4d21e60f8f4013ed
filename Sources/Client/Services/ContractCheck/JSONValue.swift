import DeckValues
import FoundationEssentials

/// What the contract check shows of a value.
extension JSONValue {
  /// A short description of what came back: `number 42`, `string "abc"`, `array (3 items)`.
  var summary: String {
    switch self {
    case .null: "null"
    case .bool(let value): "boolean \(value)"
    case .number(let number): "\(number.isInteger ? "integer" : "number") \(JSONValue.truncated(number.literal, 40))"
    case .string(let value): "string \(JSONValue.truncated(JSONText.quoted(value), 60))"
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

  /// The text cut to at most `limit` characters, with an ellipsis when cut.
  static func truncated(_ text: String, _ limit: Int) -> String {
    guard text.count > limit, limit > 1 else { return text }
    return String(text.prefix(limit - 1)) + "…"
  }
}

/// JSON paths as findings show them: `$`, `$.items[0].name`, `$["a b"]`.
enum JSONPath {
  static let root = "$"

  static func appending(_ path: String, key: String) -> String {
    if isIdentifier(key) { return path + "." + key }
    return path + "[" + JSONText.quoted(key) + "]"
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
