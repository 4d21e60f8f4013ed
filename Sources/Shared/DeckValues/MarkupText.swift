/// Text for HTML and XML: the pages the sandbox serves (the kiosk's landing page, the workspace's
/// checkout and invite pages) and the JUnit reports of `deck contract check` and `deck qa run`.
/// The one markup escaper of the package.
public enum MarkupText {
  /// Text and attribute values, scalar by scalar (a quote followed by a combining mark is one
  /// `Character`, but still a quote to a browser): `&`, `<`, `>`, `"` and `'` as references;
  /// line breaks, tabs, DEL, the C1 controls and the line and paragraph separators as character
  /// references (so that every element stays on one line of a file, and attribute values keep
  /// them); and the characters XML 1.0 cannot hold even as references (other C0 controls,
  /// U+FFFE, U+FFFF) dropped.
  public static func escape(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      case "\n", "\r", "\t": result += "&#\(scalar.value);"
      case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: continue
      case _ where isLineBreakOrControl(scalar): result += "&#\(scalar.value);"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// DEL, the C1 controls (with NEL, U+0085), and the line and paragraph separators.
  static func isLineBreakOrControl(_ scalar: Unicode.Scalar) -> Bool {
    (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
  }
}
