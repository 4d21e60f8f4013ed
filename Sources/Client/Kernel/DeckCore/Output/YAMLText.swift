import DeckValues
import DeckYAML

/// `--format yaml`: a result's data as YAML (DeckYAML's writer). Keys in the order of the JSON;
/// text that would read back as another type (`"true"`, `"42"`, `""`) is quoted; long lines are
/// not folded; control characters are escaped, so the text is safe on a terminal.
public enum YAMLText {
  /// The YAML document of the JSON of `value`.
  public static func render<Value: Encodable>(_ value: Value) throws -> String {
    render(try JSONValue(encoding: value))
  }

  static func render(_ tree: JSONValue) -> String {
    YAMLWriter.document(node(tree))
  }

  /// Numbers, booleans and null are written plain; text is written as text.
  static func node(_ tree: JSONValue) -> YAMLNode {
    switch tree {
    case .null: .scalar(YAMLNode.Scalar("null"))
    case .bool(let flag): .scalar(YAMLNode.Scalar(flag ? "true" : "false"))
    case .number(let number): .scalar(YAMLNode.Scalar(number.literal))
    case .string(let text): .scalar(YAMLNode.Scalar(text, style: .doubleQuoted))
    case .array(let items): .sequence(YAMLNode.Sequence(items.map(node)))
    case .object(let object):
      .mapping(
        YAMLNode.Mapping(
          object.entries.map { (key: .scalar(YAMLNode.Scalar($0.key, style: .doubleQuoted)), value: node($0.value)) }))
    }
  }
}
