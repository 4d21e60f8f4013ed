import DeckValues
import DeckYAML

/// A YAML document as a JSON value, with mappings in document order (the schemas are checked as
/// written, not as a model re-encodes them).
enum YAMLTree {
  static func load(_ yaml: String) throws -> JSONValue {
    guard let node = try YAMLNode.compose(yaml: yaml) else { return .null }
    return value(of: node)
  }

  /// Plain scalars by YAML 1.2's core schema, as OpenAPI documents are read: yes/no/on/off and
  /// 1:30 (YAML 1.1 booleans and base-60 numbers) stay strings.
  private static func value(of node: YAMLNode) -> JSONValue {
    switch node {
    case .scalar(let scalar):
      switch YAMLScalarValue(scalar) {
      case .null: return .null
      case .bool(let flag): return .bool(flag)
      case .int(let integer): return .number(JSONNumber(integer))
      case .bigInteger(let digits): return .number(JSONNumber(literal: digits))
      case .float(let float): return float.isFinite ? .number(JSONNumber(float)) : .string(scalar.string)
      case .string(let text): return .string(text)
      }
    case .mapping(let mapping):
      var object = JSONObject()
      for (key, item) in mapping {
        object[key.string ?? ""] = value(of: item)
      }
      return .object(object)
    case .sequence(let sequence):
      return .array(sequence.map { value(of: $0) })
    }
  }
}
