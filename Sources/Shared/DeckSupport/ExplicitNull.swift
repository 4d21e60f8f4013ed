import Foundation

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
/// patch that clears a field with `null`) cannot use. Works on `JSONSerialization` values.
public enum JSONNulls {
  /// `value` with a null at each of `paths` wherever the path's parents exist and its last key
  /// does not. A path is keys, `*` standing for every element of an array:
  /// `["categories", "*", "updatedAt"]`.
  public static func fill(_ value: Any, _ paths: [[String]]) -> Any {
    paths.reduce(value) { fill($0, $1[...]) }
  }

  /// JSON text with the nulls of `paths` filled in (keys sorted); the text unchanged when it is
  /// not JSON.
  public static func fill(_ data: Data, _ paths: [[String]]) -> Data {
    guard let json = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
      let filled = try? JSONSerialization.data(
        withJSONObject: fill(json, paths), options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
    else { return data }
    return filled
  }

  static func fill(_ value: Any, _ path: ArraySlice<String>) -> Any {
    guard let key = path.first else { return value }
    if key == "*", let array = value as? [Any] { return array.map { fill($0, path.dropFirst()) } }
    guard var object = value as? [String: Any] else { return value }
    if path.count == 1 {
      if object[key] == nil { object[key] = NSNull() }
    } else if let inner = object[key] {
      object[key] = fill(inner, path.dropFirst())
    }
    return object
  }
}
