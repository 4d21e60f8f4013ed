/// JSON values through Swift's coders. A decoder gives an object's keys in no order, so they are
/// sorted, as deck's encoder (`DeckJSON`) writes them; a number is read as an integer when it is
/// one (up to UInt64's range), else as a Double (its literal is then Swift's spelling of it).
extension JSONValue: Codable {
  public init(from decoder: any Decoder) throws {
    if let keyed = try? decoder.container(keyedBy: Key.self) {
      var object = JSONObject()
      for key in keyed.allKeys.map(\.stringValue).sorted() {
        object[key] = try keyed.decode(JSONValue.self, forKey: Key(key))
      }
      self = .object(object)
      return
    }
    if var array = try? decoder.unkeyedContainer() {
      var items: [JSONValue] = []
      while !array.isAtEnd { items.append(try array.decode(JSONValue.self)) }
      self = .array(items)
      return
    }
    let scalar = try decoder.singleValueContainer()
    guard !scalar.decodeNil() else {
      self = .null
      return
    }
    // The first reading that fits: JSON's true and false are no numbers.
    // (Written as statements: as one `??` chain it is too slow to type-check in the fuzz build.)
    if let flag = try? scalar.decode(Bool.self) {
      self = .bool(flag)
    } else if let integer = try? scalar.decode(Int64.self) {
      self = .number(JSONNumber(literal: String(integer)))
    } else if let integer = try? scalar.decode(UInt64.self) {
      self = .number(JSONNumber(literal: String(integer)))
    } else if let number = try? scalar.decode(Double.self) {
      self = .number(JSONNumber(literal: String(number)))
    } else {
      self = .string(try scalar.decode(String.self))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .null:
      var scalar = encoder.singleValueContainer()
      try scalar.encodeNil()
    case .bool(let flag):
      var scalar = encoder.singleValueContainer()
      try scalar.encode(flag)
    case .number(let number):
      var scalar = encoder.singleValueContainer()
      if let integer = Int64(number.literal) {
        try scalar.encode(integer)
      } else if let integer = UInt64(number.literal) {
        try scalar.encode(integer)
      } else {
        try scalar.encode(number.double)
      }
    case .string(let text):
      var scalar = encoder.singleValueContainer()
      try scalar.encode(text)
    case .array(let items):
      var array = encoder.unkeyedContainer()
      for item in items { try array.encode(item) }
    case .object(let object):
      var keyed = encoder.container(keyedBy: Key.self)
      for (key, value) in object.entries { try keyed.encode(value, forKey: Key(key)) }
    }
  }

  struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}
