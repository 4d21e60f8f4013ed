import DeckSupport
import FoundationEssentials

/// A command's result as a JSON tree, read back from the JSON deck prints, so that YAML and
/// CSV show exactly the data `--json` shows (same keys, in the same order, same nulls, same
/// dates).
indirect enum JSONTree: Equatable, Sendable, Codable {
  case null
  case bool(Bool)
  /// A number, as its JSON text.
  case number(String)
  case string(String)
  case array([JSONTree])
  /// Keys in the order `DeckJSON` sorts them.
  case object([Member])

  struct Member: Equatable, Sendable {
    var key: String
    var value: JSONTree
  }

  /// The tree of `value` as `DeckJSON` encodes it.
  init<Value: Encodable>(encoding value: Value) throws {
    self = try DeckJSON.decoder.decode(JSONTree.self, from: DeckJSON.compactEncoder.encode(value))
  }

  init(from decoder: any Decoder) throws {
    if let object = try? decoder.container(keyedBy: Key.self) {
      self = .object(
        try object.allKeys.map(\.stringValue).sorted().map { key in
          Member(key: key, value: try object.decode(JSONTree.self, forKey: Key(key)))
        })
      return
    }
    if var array = try? decoder.unkeyedContainer() {
      var items: [JSONTree] = []
      while !array.isAtEnd { items.append(try array.decode(JSONTree.self)) }
      self = .array(items)
      return
    }
    let scalar = try decoder.singleValueContainer()
    guard !scalar.decodeNil() else {
      self = .null
      return
    }
    // The first reading that fits: JSON's true and false are no numbers, and a number is
    // kept as an integer when it is one.
    // (Written as statements: as one `??` chain it is too slow to type-check in the fuzz build.)
    if let flag = try? scalar.decode(Bool.self) {
      self = .bool(flag)
    } else if let integer = try? scalar.decode(Int64.self) {
      self = .number(String(integer))
    } else if let number = try? scalar.decode(Double.self) {
      self = .number(String(number))
    } else {
      self = .string(try scalar.decode(String.self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    switch self {
    case .null:
      var scalar = encoder.singleValueContainer()
      try scalar.encodeNil()
    case .bool(let flag):
      var scalar = encoder.singleValueContainer()
      try scalar.encode(flag)
    case .number(let text):
      var scalar = encoder.singleValueContainer()
      if let integer = Int64(text) { try scalar.encode(integer) } else { try scalar.encode(Double(text) ?? 0) }
    case .string(let text):
      var scalar = encoder.singleValueContainer()
      try scalar.encode(text)
    case .array(let items):
      var array = encoder.unkeyedContainer()
      for item in items { try array.encode(item) }
    case .object(let members):
      var object = encoder.container(keyedBy: Key.self)
      for member in members { try object.encode(member.value, forKey: Key(member.key)) }
    }
  }

  /// The value as one line of JSON (for a CSV cell that holds a list or an object).
  var compactJSON: String {
    (try? DeckJSON.compactEncoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
  }

  struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}
