import Yams

/// `--format yaml`: a result's data as YAML, through Yams. Keys in the order of the JSON; text
/// that would read back as another type (`"true"`, `"42"`, `""`) is quoted; long lines are not
/// folded; control characters are escaped, so the text is safe on a terminal.
public enum YAMLText {
  /// The YAML document of the JSON of `value`.
  public static func render<Value: Encodable>(_ value: Value) throws -> String {
    try render(JSONTree(encoding: value))
  }

  static func render(_ tree: JSONTree) throws -> String {
    try Yams.serialize(node: node(tree), width: -1, allowUnicode: true)
  }

  static func node(_ tree: JSONTree) -> Node {
    switch tree {
    case .null: Node("null", Tag(.null))
    case .bool(let flag): Node(flag ? "true" : "false", Tag(.bool))
    case .number(let text): Node(text, Tag(Int64(text) == nil ? .float : .int))
    case .string(let text): .scalar(text.represented())
    case .array(let items): Node(items.map(node))
    case .object(let members): Node(members.map { (Node.scalar($0.key.represented()), node($0.value)) })
    }
  }
}
