import Foundation

/// A column's name as a coding key (the path of a decoding error).
struct SQLiteColumnKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

/// Decodes one column's value: as the type itself for SQLite's own types, else through a
/// single-value container (a UUID from text, an enum from its raw value, an optional).
struct SQLiteValueDecoder: Decoder, SingleValueDecodingContainer {
  let value: SQLiteValue
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    switch value {
    case .blob(let bytes):
      if type == Data.self, let data = Data(bytes) as? T { return data }
      if let bytes = bytes as? T { return bytes }
    case .integer(let integer):
      if let integer = integer as? T { return integer }
      if type == Int.self, let narrowed = Int(exactly: integer) as? T { return narrowed }
    case .real(let real):
      if let real = real as? T { return real }
    case .text(let text):
      if let text = text as? T { return text }
    case .null:
      break
    }
    return try T(from: self)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    throw mismatch(type, "a keyed container")
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw mismatch([Any].self, "an unkeyed container")
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

  func decodeNil() -> Bool { value == .null }

  func decode(_ type: Bool.Type) throws -> Bool {
    guard case .integer(let integer) = value else { throw mismatch(type) }
    return integer != 0
  }

  func decode(_ type: String.Type) throws -> String {
    guard case .text(let text) = value else { throw mismatch(type) }
    return text
  }

  func decode(_ type: Double.Type) throws -> Double {
    switch value {
    case .real(let real): return real
    case .integer(let integer): return Double(integer)
    default: throw mismatch(type)
    }
  }

  func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

  func decode(_ type: Int.Type) throws -> Int { try integer(type) }
  func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
  func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

  /// An integer column as `T`, when it fits (never trapping on a value out of range).
  private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
    guard case .integer(let integer) = value else { throw mismatch(type) }
    guard let fitted = T(exactly: integer) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: codingPath, debugDescription: "\(integer) does not fit in \(T.self)"))
    }
    return fitted
  }

  private func mismatch(_ type: Any.Type, _ what: String? = nil) -> DecodingError {
    DecodingError.typeMismatch(
      type, .init(codingPath: codingPath, debugDescription: "expected \(what ?? "\(type)"), found \(value)"))
  }
}

/// Captures the single value a bound type encodes itself as.
final class SQLiteValueEncoder: Encoder, SingleValueEncodingContainer {
  var value: SQLiteValue?
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(RefusingKeyedContainer<Key>())
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer { RefusingUnkeyedContainer() }
  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  func encodeNil() { value = .null }
  func encode(_ value: Bool) { self.value = .integer(value ? 1 : 0) }
  func encode(_ value: String) { self.value = .text(value) }
  func encode(_ value: Double) { self.value = .real(value) }
  func encode(_ value: Float) { self.value = .real(Double(value)) }
  func encode(_ value: Int) { self.value = .integer(Int64(value)) }
  func encode(_ value: Int8) { self.value = .integer(Int64(value)) }
  func encode(_ value: Int16) { self.value = .integer(Int64(value)) }
  func encode(_ value: Int32) { self.value = .integer(Int64(value)) }
  func encode(_ value: Int64) { self.value = .integer(value) }
  func encode(_ value: UInt8) { self.value = .integer(Int64(value)) }
  func encode(_ value: UInt16) { self.value = .integer(Int64(value)) }
  func encode(_ value: UInt32) { self.value = .integer(Int64(value)) }
  func encode(_ value: UInt) throws { self.value = .integer(try Self.fitted(value)) }
  func encode(_ value: UInt64) throws { self.value = .integer(try Self.fitted(value)) }
  func encode<T: Encodable>(_ value: T) throws { self.value = try SQLiteValue.encode(value, sql: "") }

  private static func fitted<T: BinaryInteger>(_ value: T) throws -> Int64 {
    guard let fitted = Int64(exactly: value) else {
      throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "too large for SQLite"))
    }
    return fitted
  }
}

/// Bound values are single values: a type that encodes a structure is not bindable (the
/// encoder then holds no value, and binding reports it).
private struct RefusingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  var codingPath: [any CodingKey] { [] }
  mutating func encodeNil(forKey key: Key) {}
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) {}
  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> { KeyedEncodingContainer(RefusingKeyedContainer<NestedKey>()) }
  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    RefusingUnkeyedContainer()
  }
  mutating func superEncoder() -> any Encoder { SQLiteValueEncoder() }
  mutating func superEncoder(forKey key: Key) -> any Encoder { SQLiteValueEncoder() }
}

private struct RefusingUnkeyedContainer: UnkeyedEncodingContainer {
  var codingPath: [any CodingKey] { [] }
  var count: Int { 0 }
  mutating func encodeNil() {}
  mutating func encode<T: Encodable>(_ value: T) {}
  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
    NestedKey
  > { KeyedEncodingContainer(RefusingKeyedContainer<NestedKey>()) }
  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { RefusingUnkeyedContainer() }
  mutating func superEncoder() -> any Encoder { SQLiteValueEncoder() }
}
