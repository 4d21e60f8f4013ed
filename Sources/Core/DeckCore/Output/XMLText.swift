/// Text for an XML document (the JUnit reports of `deck contract check` and `deck qa run`).
public enum XMLText {
  /// Text and attribute values: the five entities, line breaks and tabs as character
  /// references (so attribute values keep them), and the characters XML 1.0 cannot hold
  /// (other controls, U+FFFE, U+FFFF) dropped.
  public static func escape(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&apos;"
      case "\n": result += "&#10;"
      case "\r": result += "&#13;"
      case "\t": result += "&#9;"
      case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: continue
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
