import DeckValues
import FoundationEssentials

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

/// Putting `null`s back into JSON that an encoder left them out of: the generated OpenAPI code
/// encodes a nil optional as an absent key, which a document that requires the key (or a merge
/// patch that clears a field with `null`) cannot use.
public enum JSONNulls {
  /// JSON text with a null at each of `paths` wherever the path's parents exist and its last
  /// key does not (keys sorted); the text unchanged when it is not JSON. A path is keys, `*`
  /// standing for every element of an array: `["categories", "*", "updatedAt"]`.
  public static func fill(_ data: Data, _ paths: [[String]]) -> Data {
    guard let json = try? JSONDecoder().decode(JSONValue.self, from: data) else { return data }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(paths.reduce(json) { $0.filling($1[...]) })) ?? data
  }
}

extension JSONValue {
  func filling(_ path: ArraySlice<String>) -> JSONValue {
    guard let key = path.first else { return self }
    if key == "*", case .array(let array) = self { return .array(array.map { $0.filling(path.dropFirst()) }) }
    guard case .object(var object) = self else { return self }
    if path.count == 1 {
      if object[key] == nil { object[key] = .null }
    } else if let inner = object[key] {
      object[key] = inner.filling(path.dropFirst())
    }
    return .object(object)
  }
}
