/// An optional property that is encoded as `null` when it has no value, instead of being
/// left out as synthesized `Encodable` does. For JSON whose contract lists every key:
///
/// ```swift
/// struct AccessView: Encodable {
///   @ExplicitNull var role: String?     // "role": null
///   var reason: String?                 // left out when nil
/// }
/// ```
///
/// Decoding accepts both a `null` and a missing key.
@propertyWrapper
public struct ExplicitNull<Value> {
  public var wrappedValue: Value?

  public init(wrappedValue: Value?) {
    self.wrappedValue = wrappedValue
  }
}

extension ExplicitNull: Encodable where Value: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if let wrappedValue {
      try container.encode(wrappedValue)
    } else {
      try container.encodeNil()
    }
  }
}

extension ExplicitNull: Decodable where Value: Decodable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
  }
}

extension KeyedDecodingContainer {
  /// A missing key is a nil value (synthesized `Decodable` asks for every wrapped property).
  public func decode<Value: Decodable>(_ type: ExplicitNull<Value>.Type, forKey key: Key) throws
    -> ExplicitNull<Value>
  {
    try decodeIfPresent(type, forKey: key) ?? ExplicitNull(wrappedValue: nil)
  }
}

extension ExplicitNull: Sendable where Value: Sendable {}
extension ExplicitNull: Equatable where Value: Equatable {}
extension ExplicitNull: Hashable where Value: Hashable {}
