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
    case .scalar(let scalar):
      // YAML 1.2's core schema, as OpenAPI documents are read: yes/no/on/off and 1:30 (YAML 1.1
      // booleans and base-60 numbers) stay strings.
      let text = scalar.string
      switch node.tag.description {
      case Tag.Name.null.rawValue: return .null
      case Tag.Name.bool.rawValue:
        switch text.lowercased() {
        case "true": return .bool(true)
        case "false": return .bool(false)
        default: return .string(text)
        }
      case Tag.Name.int.rawValue:
        if let int = Int(text) { return .number(JSONNumber(int)) }
        if text.hasPrefix("0x") || text.hasPrefix("0o"), let int = node.int { return .number(JSONNumber(int)) }
        if text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-" || $0 == "+") }) {
          return .number(JSONNumber(literal: text.hasPrefix("+") ? String(text.dropFirst()) : text))
        }
        return .string(text)
      case Tag.Name.float.rawValue:
        if let float = Double(text), float.isFinite { return .number(JSONNumber(float)) }
        return .string(text)
      default: return .string(text)
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
