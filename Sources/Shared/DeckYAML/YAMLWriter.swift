/// Writes a tree as block-style YAML, as libyaml lays it out: two-space indentation, a mapping's
/// sequences not indented, `{}` and `[]` for empty collections, lines never folded.
///
/// A `.plain` scalar is written as given (it is meant as a number, a bool or null). Every other
/// scalar is text, written so that it reads back as the same text: plain when that is
/// unambiguous (under YAML 1.2's core schema and the 1.1 words other parsers still take for
/// booleans), single-quoted when it only has printable characters, double-quoted with escapes
/// otherwise, so control characters never reach a terminal raw.
public enum YAMLWriter {
  /// The document's text, ending in a newline.
  public static func document(_ node: YAMLNode) -> String {
    guard isCollection(node) else { return inline(node) + "\n" }
    var out = ""
    write(node, indent: 0, into: &out)
    return out
  }

  /// Text as a scalar that reads back as that text: in a block collection, or `inFlow` (an item
  /// of `[a, b]` or `{k: v}`, where `,[]{}` end a plain scalar and libyaml refuses `:?`).
  public static func text(_ string: String, inFlow: Bool = false) -> String {
    guard isPlainSafe(string) else { return quoted(string) }
    if inFlow && (string.unicodeScalars.contains { ",[]{}".unicodeScalars.contains($0) } || string.contains(":?")) {
      return quoted(string)
    }
    return string
  }

  /// Text as a quoted scalar: single-quoted when it only has printable characters, double-quoted
  /// with escapes otherwise.
  public static func quoted(_ string: String) -> String {
    if string.unicodeScalars.allSatisfy(isPrintable) {
      // By code points: a quote followed by a combining mark is one Character, but still a quote.
      var quoted = "'"
      for scalar in string.unicodeScalars {
        quoted.unicodeScalars.append(scalar)
        if scalar == "'" { quoted.unicodeScalars.append("'") }
      }
      return quoted + "'"
    }
    return doubleQuoted(string)
  }

  /// A scalar, or an empty collection, on one line.
  static func inline(_ node: YAMLNode) -> String {
    switch node {
    case .scalar(let scalar) where scalar.style == .plain:
      // A value as given (a number, a bool, null): an empty one is YAML's null.
      scalar.string.isEmpty ? "null" : isPlainSyntax(scalar.string) ? scalar.string : text(scalar.string)
    case .scalar(let scalar): text(scalar.string)
    case .mapping: "{}"
    case .sequence: "[]"
    }
  }

  static func isCollection(_ node: YAMLNode) -> Bool {
    switch node {
    case .mapping(let mapping): !mapping.pairs.isEmpty
    case .sequence(let sequence): !sequence.nodes.isEmpty
    case .scalar: false
    }
  }

  /// A non-empty collection at `indent`, each line starting with the indentation.
  static func write(_ node: YAMLNode, indent: Int, into out: inout String) {
    let pad = String(repeating: " ", count: indent)
    switch node {
    case .mapping(let mapping):
      for (key, value) in mapping {
        let written = inline(key)
        // libyaml limits an implicit key to 1024 bytes; a longer one is written explicitly.
        out += written.utf8.count > 1000 ? pad + "? " + written + "\n" + pad + ":" : pad + written + ":"
        switch value {
        case .mapping where isCollection(value):
          out += "\n"
          write(value, indent: indent + 2, into: &out)
        case .sequence where isCollection(value):
          out += "\n"
          write(value, indent: indent, into: &out)
        default:
          out += " " + inline(value) + "\n"
        }
      }
    case .sequence(let sequence):
      for item in sequence {
        guard isCollection(item) else {
          out += pad + "- " + inline(item) + "\n"
          continue
        }
        // The item's first line follows the dash; the rest are indented past it.
        var nested = ""
        write(item, indent: indent + 2, into: &nested)
        // By code points: a combining mark at the start of the item is not part of the padding.
        out += pad + "- " + String(nested.unicodeScalars.dropFirst(indent + 2))
      }
    case .scalar:
      out += pad + inline(node) + "\n"
    }
  }

  static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x20...0x7E: true
    case 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF:
      scalar.value != 0xFEFF && scalar.value != 0x2028 && scalar.value != 0x2029
    default: false
    }
  }

  /// Whether the text can be written as a plain scalar in block context, whatever it means.
  static func isPlainSyntax(_ string: String) -> Bool {
    guard let first = string.unicodeScalars.first, let last = string.unicodeScalars.last else { return false }
    guard string.unicodeScalars.allSatisfy(isPrintable), first != " ", last != " ", last != ":" else { return false }
    if "-?:,[]{}#&*!|>'\"%@`<=".unicodeScalars.contains(first) { return false }
    // At the start of a line `...` ends the document (`---`, starting with `-`, is refused above).
    if string.unicodeScalars.starts(with: "...".unicodeScalars) { return false }
    // By code points, as YAML reads: `: ` and ` #` end a plain scalar even before a combining mark.
    var previous: Unicode.Scalar?
    for scalar in string.unicodeScalars {
      if previous == ":" && scalar == " " || previous == " " && scalar == "#" { return false }
      previous = scalar
    }
    return true
  }

  /// Whether the text can be written plain and read back as the same text.
  static func isPlainSafe(_ string: String) -> Bool {
    guard isPlainSyntax(string), case .string = YAMLScalarValue.plain(string), let first = string.unicodeScalars.first
    else { return false }
    // YAML 1.1's booleans, and text that a 1.1 parser could take for a number, date or time.
    let words = ["y", "n", "yes", "no", "on", "off"]
    if words.contains(string.lowercased()) { return false }
    if ("0"..."9").contains(first) || first == "." || first == "+" {
      let numeric = "0123456789+-.:_eExXoObBabcdfABCDFTtZz ".unicodeScalars
      return !string.unicodeScalars.allSatisfy { numeric.contains($0) }
    }
    return true
  }

  static func doubleQuoted(_ string: String) -> String {
    var quoted = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\\": quoted += "\\\\"
      case "\"": quoted += "\\\""
      case "\n": quoted += "\\n"
      case "\t": quoted += "\\t"
      case "\r": quoted += "\\r"
      case _ where isPrintable(scalar): quoted.unicodeScalars.append(scalar)
      default:
        let hex = String(scalar.value, radix: 16)
        quoted +=
          scalar.value <= 0xFFFF
          ? "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
          : "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
      }
    }
    return quoted + "\""
  }
}
