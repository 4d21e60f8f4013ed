import Foundation

/// The text formats fields are checked against. Each is deliberately simple and documented by the
/// `allowed` text of its `FieldRule`.
enum TextFormat {
  static let asciiDigits = Set("0123456789")

  /// `12345` or `12345-6789` (so at most 10 characters, as the spec's ZIP field).
  static func isZIP(_ text: String) -> Bool {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard let first = parts.first, first.count == 5, first.allSatisfy(asciiDigits.contains) else { return false }
    return parts.count == 1 || (parts.count == 2 && parts[1].count == 4 && parts[1].allSatisfy(asciiDigits.contains))
  }

  /// `local@domain.tld`: one `@`, no white space, a dotted domain without empty labels, at most 254 characters.
  static func isEmail(_ text: String) -> Bool {
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    guard text.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[0].count <= 64,
      !text.contains(where: \.isWhitespace)
    else { return false }
    let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
    return labels.count >= 2
      && labels.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } }
  }

  /// An `http://` or `https://` URL with a host and no white space.
  static func isWebURL(_ text: String) -> Bool {
    guard text.count <= 2000, !text.contains(where: \.isWhitespace), let url = URLComponents(string: text),
      let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
    else { return false }
    return true
  }

  /// A social handle without the `@`: 1–30 ASCII letters, digits, `_` or `.`.
  static func isHandle(_ text: String) -> Bool {
    (1...30).contains(text.count)
      && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }
  }

  /// 7–15 digits, with an optional leading `+` and spaces, dashes, dots or parentheses between.
  static func isPhone(_ text: String) -> Bool {
    let body = text.hasPrefix("+") ? text.dropFirst() : Substring(text)
    let separators = Set(" -.()")
    let digits = body.filter(asciiDigits.contains).count
    return text.count <= 30 && (7...15).contains(digits)
      && body.allSatisfy { asciiDigits.contains($0) || separators.contains($0) }
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
}
