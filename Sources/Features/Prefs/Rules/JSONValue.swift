import DeckValues
import FoundationEssentials

/// A JSON value as decoded, before it is checked against a field's type: the neutral form that stored
/// data, import files and `key=value` input are all read through, so a wrongly typed field can be
/// named (with its value) instead of failing the whole document.
public enum JSONValue: Sendable, Equatable, Codable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int.self) {
      self = .int(value)
    } else if let value = try? container.decode(Double.self) {
      self = .double(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .int(let value): try container.encode(value)
    case .double(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }

  /// Decodes `data` as one JSON document, or nil when it is not JSON.
  public static func parse(_ data: Data) -> JSONValue? {
    try? JSONDecoder().decode(JSONValue.self, from: data)
  }

  /// The value as it appears in a message: strings quoted, long text and lists shortened.
  public var literal: String {
    switch self {
    case .null: "null"
    case .bool(let value): String(value)
    case .int(let value): String(value)
    case .double(let value): String(value)
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
    case .int, .double: "a number"
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
