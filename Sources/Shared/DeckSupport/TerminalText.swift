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

  /// Removes control characters but keeps the colour (SGR) sequences deck draws frames with
  /// (`ESC [ 0-9;… m`); any other escape sequence loses its ESC, like `sanitize`. Line breaks
  /// and tabs become spaces (a frame line is one line).
  public static func sanitizeKeepingColors(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    let scalars = Array(text.unicodeScalars)
    var result = String.UnicodeScalarView()
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "\u{1B}", let end = sgrEnd(scalars, from: index) {
        result.append(contentsOf: scalars[index...end])
        index = end + 1
        continue
      }
      if scalar == "\n" || scalar == "\t" {
        result.append(" ")
      } else if !isControl(scalar) {
        result.append(scalar)
      }
      index += 1
    }
    return String(result)
  }

  /// The index of the `m` that ends an SGR sequence starting at `start` (an ESC), if it is one.
  private static func sgrEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
    var index = start + 1
    guard index < scalars.count, scalars[index] == "[" else { return nil }
    index += 1
    while index < scalars.count, index - start <= 32 {
      let scalar = scalars[index]
      if scalar == "m" { return index }
      guard ("0"..."9").contains(scalar) || scalar == ";" else { return nil }
      index += 1
    }
    return nil
  }

  /// JSON text with DEL and the C1 controls, which JSON leaves raw, written as `\\u` escapes
  /// (they can only stand inside strings, so the document's meaning is unchanged).
  public static func escapingC1(inJSON json: String) -> String {
    guard json.unicodeScalars.contains(where: { (0x7F...0x9F).contains($0.value) }) else { return json }
    var result = ""
    for scalar in json.unicodeScalars {
      if (0x7F...0x9F).contains(scalar.value) {
        result += "\\u00" + String(scalar.value, radix: 16)
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }
}
