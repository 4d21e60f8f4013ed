/// Text deck did not write itself (server messages, values from a server, echoed input) is
/// shown without control characters, so it cannot move the cursor, retitle the terminal,
/// clear the screen or ring the bell.
public enum TerminalText {
  /// Removes C0 and C1 control characters and DEL. `keepNewlines` keeps `\n` and `\t` (for
  /// multi-line text); otherwise they become spaces.
  public static func sanitize(_ text: String, keepNewlines: Bool = false) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if scalar == "\n" || scalar == "\t" {
        result.append(keepNewlines ? scalar : " ")
      } else if !isControl(scalar) {
        result.append(scalar)
      }
    }
    return String(result)
  }

  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }
}
