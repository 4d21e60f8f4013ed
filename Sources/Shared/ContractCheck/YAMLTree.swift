import Yams

/// A YAML document as a JSON value, with mappings in document order (the schemas are checked as
/// written, not as a model re-encodes them).
enum YAMLTree {
  static func load(_ yaml: String) throws -> JSONValue {
    guard let node = try Yams.compose(yaml: yaml) else { return .null }
    return value(of: node, depth: 0)
  }

  private static func value(of node: Node, depth: Int) -> JSONValue {
    guard depth < 512 else { return .null }
    switch node {
    case .scalar:
      switch node.tag.description {
      case Tag.Name.null.rawValue: return .null
      case Tag.Name.bool.rawValue: return node.bool.map(JSONValue.bool) ?? .string(node.string ?? "")
      case Tag.Name.int.rawValue:
        if let int = node.int { return .number(JSONNumber(int)) }
        if let float = node.float { return .number(JSONNumber(float)) }
        return .string(node.string ?? "")
      case Tag.Name.float.rawValue:
        if let float = node.float, float.isFinite { return .number(JSONNumber(float)) }
        return .string(node.string ?? "")
      default: return .string(node.string ?? "")
      }
    case .mapping(let mapping):
      var object = JSONObject()
      for (key, item) in mapping {
        object[key.string ?? ""] = value(of: item, depth: depth + 1)
      }
      return .object(object)
    case .sequence(let sequence):
      return .array(sequence.map { value(of: $0, depth: depth + 1) })
    case .alias:
      return .null
    }
  }
}
