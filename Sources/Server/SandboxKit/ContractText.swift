import Foundation

/// Text rules the OpenAPI documents state as patterns, implemented here exactly as written
/// there, so that the server accepts what the schema allows and nothing else.
package enum ContractText {
  /// The whitespace the contracts trim: space, tab, LF, VT, FF, CR (`[\t\n\u000B\u000C\r ]`).
  package static let blanks: Set<Unicode.Scalar> = [" ", "\t", "\n", "\u{0B}", "\u{0C}", "\r"]

  /// `text` without leading and trailing contract whitespace.
  package static func trim(_ text: String) -> String {
    let scalars = text.unicodeScalars
    guard let first = scalars.firstIndex(where: { !blanks.contains($0) }),
      let last = scalars.lastIndex(where: { !blanks.contains($0) })
    else { return "" }
    return String(scalars[first...last])
  }

  /// The documents' invite email pattern (workspace-onboarding: an address with one `@`, a
  /// local part, and a dotted domain with no empty label, no whitespace), at most 254 characters.
  package static let emailPattern =
    #"^[^@\t\n\u000B\u000C\r ]+@[^@.\t\n\u000B\u000C\r ]+(\.[^@.\t\n\u000B\u000C\r ]+)+$"#
  /// Unix line separators: `$` matches at the end or before a final LF only, as in the
  /// JSON Schema validators (ECMA-262 and Python semantics) that read the documents.
  private static let emailExpression = try? NSRegularExpression(
    pattern: emailPattern, options: [.useUnixLineSeparators])

  package static func isEmail(_ text: String) -> Bool {
    guard text.unicodeScalars.count <= 254, let expression = emailExpression else { return false }
    return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
  }
}

extension ContractText {
  /// The documents' timestamp pattern: a date, or a date-time with seconds optional, fractions
  /// optional and a zone (Z or ±hh:mm). A day past the month's end rolls over (Feb 30 is Mar 2).
  package static let timestampPattern =
    #"^([0-9]{4})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])(T([01][0-9]|2[0-3]):([0-5][0-9])(:([0-5][0-9])(\.[0-9]{1,9})?)?(Z|([+-])([01][0-9]|2[0-3]):([0-5][0-9])))?$"#
  private static let timestampExpression = try? NSRegularExpression(
    pattern: timestampPattern, options: [.useUnixLineSeparators])

  package static func parseTimestamp(_ text: String) -> Date? {
    guard let expression = timestampExpression,
      let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))
    else { return nil }
    func group(_ index: Int) -> String? {
      Range(match.range(at: index), in: text).map { String(text[$0]) }
    }
    func number(_ index: Int) -> Int { group(index).flatMap { Int($0) } ?? 0 }
    var components = DateComponents()
    components.calendar = Calendar(identifier: .gregorian)
    components.timeZone = TimeZone(secondsFromGMT: 0)
    components.year = number(1)
    components.month = number(2)
    components.day = number(3)
    components.hour = number(5)
    components.minute = number(6)
    components.second = number(8)
    guard let base = components.date else { return nil }
    let fraction = group(9).flatMap { Double("0" + $0) } ?? 0
    let sign = group(11) == "-" ? -1 : 1
    let offset = sign * (number(12) * 3600 + number(13) * 60)
    return base.addingTimeInterval(fraction - Double(offset))
  }
}
