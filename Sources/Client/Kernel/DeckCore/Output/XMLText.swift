/// Text that a report (a file an operator opens, pipes or sources) may hold: no control
/// character reaches it raw. Everything here works on Unicode scalars, never on Characters
/// (Swift counts "\r\n" as one Character, so a Character-wise replace of "\n" misses it).
public enum ReportText {
  /// C0 (with tab, LF and CR), DEL, C1 (with NEL, U+0085), and the line and paragraph
  /// separators (U+2028, U+2029), which YAML, JavaScript and some terminals take as line ends.
  public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
  }

  /// One line of text: every control written as a visible escape (`\n`, `\r`, `\t`,
  /// `\u{1B}`), and each backslash doubled, so that the escapes cannot be forged.
  public static func oneLine(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where isControl(scalar): result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// JSON text (as deck's encoder writes it) with DEL, the C1 controls and U+2028/U+2029 as
  /// `\uXXXX` escapes too: the encoder escapes only C0. They can only occur inside strings,
  /// where the escape means the same scalar, so the document reads back unchanged.
  public static func json(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { $0.value >= 0x7F && isControl($0) }) else { return text }
    var result = ""
    for scalar in text.unicodeScalars {
      if scalar.value >= 0x7F && isControl(scalar) {
        let hex = String(scalar.value, radix: 16, uppercase: false)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}

extension ReportText {
  /// `text` with every appearance of each secret (of at least 4 scalars) replaced by `mask`,
  /// also as a filter or a server may have turned it: in another case; each character
  /// escaped (JSON `\u0073`, `%73`, `&#115;`) or spaced out (`s e c`, `["s","e","c"]`, a line
  /// each); as its code points (jq's `explode`); and base64 (standard and URL-safe, at each of
  /// the three alignments it can have inside a longer encoding).
  public static func maskingSecrets(_ text: String, _ secrets: [String], mask: String) -> String {
    SecretMasker(secrets, mask: mask).masking(text)
  }

  /// The regular expressions `maskingSecrets` looks for one secret with, and the fewest
  /// Unicode scalars any of them matches: each character is at least one scalar, the code
  /// points at least one digit each with a separator between, and a base64 form at least its
  /// aligned encoding.
  static func secretForms(_ secret: String) -> (patterns: [String], shortest: Int) {
    // Not the characters the escapes start with, so that an escape is matched whole.
    let separator = #"[^\p{L}\p{N}&%\\]{0,8}"#
    let characters = secret.unicodeScalars.map { scalar -> String in
      let hex = String(scalar.value, radix: 16)
      var forms = [#"\\?\u{\#(hex)}"#, "&#\(scalar.value);", "&#x0*\(hex);"]
      if scalar.value <= 0xFFFF { forms.append(#"\\u"# + String(repeating: "0", count: 4 - hex.count) + hex) }
      forms.append(
        String(scalar).utf8.map { "%" + ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined())
      return "(?:" + forms.joined(separator: "|") + ")"
    }
    var patterns = [characters.joined(separator: separator)]
    var shortest = secret.unicodeScalars.count
    patterns.append(#"\b"# + secret.unicodeScalars.map { String($0.value) }.joined(separator: "[^0-9]{1,8}") + #"\b"#)
    let bytes = Array(secret.utf8)
    for skip in 0..<3 where bytes.count - skip >= 6 {
      let aligned = Array(bytes.dropFirst(skip).prefix((bytes.count - skip) / 3 * 3))
      let standard = base64(aligned)
      let urlSafe = standard.replacing("+", with: "-").replacing("/", with: "_")
      // With the partial quanta around it, which hold bits of the secret's first and last bytes.
      shortest = min(shortest, standard.unicodeScalars.count)
      for encoded in Set([standard, urlSafe]) {
        patterns.append(
          "[A-Za-z0-9+/_-]{0,3}" + encoded.unicodeScalars.map { #"\u{\#(String($0.value, radix: 16))}"# }.joined()
            + "[A-Za-z0-9+/_-]{0,3}={0,2}")
      }
    }
    return (patterns, shortest)
  }

  /// Base64 (RFC 4648, standard alphabet, with padding).
  static func base64(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".unicodeScalars)
    var result = ""
    var index = 0
    while index < bytes.count {
      let chunk = bytes[index..<min(index + 3, bytes.count)]
      let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * UInt32($1.offset)) }
      for position in 0..<4 {
        if position <= chunk.count {
          result.unicodeScalars.append(alphabet[Int((value >> (18 - 6 * UInt32(position))) & 0x3F)])
        } else {
          result += "="
        }
      }
      index += 3
    }
    return result
  }
}

/// ``ReportText/maskingSecrets(_:_:mask:)`` for many texts: each secret's expressions are
/// compiled once, when the first text long enough to hold one of its forms comes (a token's
/// take hundreds of alternatives; compiling them for each field of a report took seconds), and
/// a text shorter than every form of a secret is not searched for it.
public final class SecretMasker {
  private let mask: String
  /// Each secret's patterns and the fewest scalars they match, longest secret first, so that a
  /// secret inside another is not half masked.
  private let forms: [(patterns: [String], shortest: Int)]
  /// The compiled expressions, by index in `forms`, once a text needed them.
  private var compiled: [Int: [Regex<AnyRegexOutput>]] = [:]

  public init(_ secrets: [String], mask: String) {
    self.mask = mask
    forms = secrets.sorted { $0.unicodeScalars.count > $1.unicodeScalars.count }
      .filter { $0.unicodeScalars.count >= 4 }
      .map(ReportText.secretForms)
  }

  public func masking(_ text: String) -> String {
    var text = text
    for index in forms.indices where text.unicodeScalars.count >= forms[index].shortest {
      for regex in expressions(index) { text = text.replacing(regex, with: mask) }
    }
    return text
  }

  private func expressions(_ index: Int) -> [Regex<AnyRegexOutput>] {
    if let known = compiled[index] { return known }
    let made = forms[index].patterns.compactMap { pattern in
      (try? Regex(pattern)).map { $0.ignoresCase().matchingSemantics(.unicodeScalar) }
    }
    compiled[index] = made
    return made
  }
}
