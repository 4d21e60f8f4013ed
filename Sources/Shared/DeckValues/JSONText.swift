/// JSON string literals, spelled as deck's JSON encoder (DeckSupport's `DeckJSON`) spells them: `"`
/// and `\` escaped, the C0 controls as `\b`, `\t`, `\n`, `\f`, `\r` or `\u00xx`, `/` never
/// escaped, every other scalar as it is. The one JSON string quoting of the package: reports,
/// messages and documents that write JSON text by hand call it.
public enum JSONText {
  /// `text` as a JSON string literal, in double quotes.
  public static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\u{8}": result += "\\b"
      case "\t": result += "\\t"
      case "\n": result += "\\n"
      case "\u{C}": result += "\\f"
      case "\r": result += "\\r"
      case _ where scalar.value < 0x20:
        result += (scalar.value < 0x10 ? "\\u000" : "\\u00") + String(scalar.value, radix: 16)
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
