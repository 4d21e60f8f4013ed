import FoundationEssentials

/// The text formats fields are checked against. Each is deliberately simple, documented by the
/// `allowed` text of its `FieldRule`, and exactly what one JSON Schema `pattern` (with
/// `maxLength`) says in the recruiting contract (`Sources/Features/Prefs/API/RecruitingAPI/openapi.yaml`),
/// so that the sandbox accepts what the contract promises and nothing else. Lengths are counted
/// in Unicode code points, as JSON Schema counts them, and white space is Unicode's White_Space.
enum TextFormat {
  static let asciiDigits = Set("0123456789")

  /// `12345` or `12345-6789` (so at most 10 characters, as the spec's ZIP field).
  static func isZIP(_ text: String) -> Bool {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard let first = parts.first, first.count == 5, first.allSatisfy(asciiDigits.contains) else { return false }
    return parts.count == 1 || (parts.count == 2 && parts[1].count == 4 && parts[1].allSatisfy(asciiDigits.contains))
  }

  /// `local@domain.tld`: one `@`; a local part of 1–64 code points without white space; a dotted
  /// domain of ASCII letters, digits and `-` without empty labels; at most 254 code points.
  static func isEmail(_ text: String) -> Bool {
    let scalars = text.unicodeScalars
    guard scalars.count <= 254, let at = scalars.firstIndex(of: "@") else { return false }
    let local = scalars[..<at]
    let labels = scalars[scalars.index(after: at)...].split(separator: ".", omittingEmptySubsequences: false)
    return (1...64).contains(local.count) && !local.contains(where: isWhiteSpace) && labels.count >= 2
      && labels.allSatisfy { !$0.isEmpty && $0.allSatisfy(isHostCharacter) }
  }

  /// An `http://` or `https://` URL (scheme in any case) with a host of dot-separated labels of
  /// ASCII letters, digits and `-`, an optional port of 1–5 digits, then optionally a path, query
  /// or fragment (starting with `/`, `?` or `#`) of the characters RFC 3986 allows in URLs; at
  /// most 2000 characters. Non-ASCII text must be percent-encoded.
  static func isWebURL(_ text: String) -> Bool {
    let scalars = Array(text.unicodeScalars)
    guard scalars.count <= 2000 else { return false }
    let lowered = String(String.UnicodeScalarView(scalars.prefix(8))).lowercased()
    let schemeLength = lowered.hasPrefix("https://") ? 8 : lowered.hasPrefix("http://") ? 7 : 0
    guard schemeLength > 0 else { return false }
    var rest = scalars[schemeLength...]
    let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
    var authority = rest[..<authorityEnd]
    rest = rest[authorityEnd...]
    if let colon = authority.firstIndex(of: ":") {
      let port = authority[authority.index(after: colon)...]
      guard (1...5).contains(port.count), port.allSatisfy({ asciiDigits.contains(Character($0)) }) else {
        return false
      }
      authority = authority[..<colon]
    }
    let labels = authority.split(separator: ".", omittingEmptySubsequences: false)
    guard labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isHostCharacter) }) else { return false }
    return rest.allSatisfy { urlCharacters.contains($0) }
  }

  /// A social handle without the `@`: 1–30 ASCII letters, digits, `_` or `.`.
  static func isHandle(_ text: String) -> Bool {
    (1...30).contains(text.unicodeScalars.count)
      && text.unicodeScalars.allSatisfy { ($0 != "-" && isHostCharacter($0)) || $0 == "_" || $0 == "." }
  }

  /// 7–15 digits, with an optional leading `+` and spaces, dashes, dots or parentheses between;
  /// at most 30 characters.
  static func isPhone(_ text: String) -> Bool {
    let scalars = text.unicodeScalars
    let body = scalars.first == "+" ? scalars.dropFirst() : scalars[...]
    let digits = body.filter { asciiDigits.contains(Character($0)) }.count
    return scalars.count <= 30 && (7...15).contains(digits)
      && body.allSatisfy { asciiDigits.contains(Character($0)) || " -.()".unicodeScalars.contains($0) }
  }

  /// `HH:MM` on a 24-hour clock, 00:00–23:59.
  static func isTime(_ text: String) -> Bool {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(asciiDigits.contains) }),
      let hour = Int(parts[0]), let minute = Int(parts[1])
    else { return false }
    return (0...23).contains(hour) && (0...59).contains(minute)
  }

  /// `7:30` as `07:30`; anything else unchanged.
  static func paddedTime(_ text: String) -> String {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].count == 1, parts[1].count == 2,
      (parts[0] + parts[1]).allSatisfy(asciiDigits.contains)
    else { return text }
    return "0" + text
  }

  /// Unicode White_Space: what the contract's patterns list as
  /// `\t\n\u000B\u000C\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000`.
  static func isWhiteSpace(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isWhitespace }

  /// An ASCII letter, digit or `-`.
  static func isHostCharacter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9", "-": true
    default: false
    }
  }

  /// RFC 3986's unreserved and reserved characters and `%`.
  static let urlCharacters = Set(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%".unicodeScalars)
}
