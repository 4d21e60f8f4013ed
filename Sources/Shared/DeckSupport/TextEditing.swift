/// The text operations deck used from Foundation's NSString bridge, which FoundationEssentials
/// (all the client links: no ICU) does not have. Characters are Swift's: `isWhitespace` covers
/// what `.whitespacesAndNewlines` did.
public enum TrimmedCharacters: Sendable {
  /// Spaces and tabs (not line breaks).
  case whitespaces
  /// Every whitespace character, line breaks included.
  case whitespacesAndNewlines
  /// Line breaks only.
  case newlines
  /// These characters.
  case characters(Set<Character>)

  func contains(_ character: Character) -> Bool {
    switch self {
    case .whitespaces: character.isWhitespace && !character.isNewline
    case .whitespacesAndNewlines: character.isWhitespace
    case .newlines: character.isNewline
    case .characters(let set): set.contains(character)
    }
  }
}

extension StringProtocol {
  /// The text without the given characters at either end.
  public func trimming(_ set: TrimmedCharacters) -> String {
    guard let first = firstIndex(where: { !set.contains($0) }), let last = lastIndex(where: { !set.contains($0) })
    else { return "" }
    return String(self[first...last])
  }

  /// The text cut or padded with spaces to `length` characters.
  public func padded(toLength length: Int) -> String {
    let count = self.count
    if count >= length { return String(prefix(Swift.max(length, 0))) }
    return String(self) + String(repeating: " ", count: length - count)
  }

  /// The pieces between each `separator`, empty ones included (as `components(separatedBy:)`).
  public func pieces(separatedBy separator: String) -> [String] {
    split(separator: separator, omittingEmptySubsequences: false).map { String($0) }
  }
}

/// Numbers as `String(format:)` wrote them, without the C formatter of Foundation.
public enum NumberText {
  /// `value` with exactly `digits` decimals (`%.{digits}f`), rounded half away from zero.
  public static func fixed(_ value: Double, digits: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
    var scale = 1.0
    for _ in 0..<max(digits, 0) { scale *= 10 }
    let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
    guard scaled < 9e18 else { return String(value) }
    let whole = UInt64(scaled)
    let factor = UInt64(scale)
    let negative = value < 0 && whole > 0
    var text = String(whole / factor)
    if digits > 0 {
      let fraction = String(whole % factor)
      text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
    return negative ? "-" + text : text
  }

  /// `value` without a fraction when it is whole (`30`), else as Swift writes it (`0.25`): as
  /// `%g` writes the seconds and sizes deck prints.
  public static func short(_ value: Double) -> String {
    if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
  }

  /// `value` in at least `width` characters, padded with `pad` on the left (`%05d`, `%5d`).
  public static func padded(_ value: some BinaryInteger, width: Int, pad: Character = " ") -> String {
    let text = String(value)
    return String(repeating: pad, count: max(0, width - text.count)) + text
  }

  /// `value` in hexadecimal, upper- or lowercase, at least `width` digits (`%02X`, `%04x`).
  public static func hex(_ value: some BinaryInteger, width: Int, uppercase: Bool) -> String {
    let text = String(value, radix: 16, uppercase: uppercase)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }
}

/// An error as one line for a message (what `localizedDescription` was for, with what went
/// wrong in a file's JSON named by its place).
public enum ErrorText {
  public static func describe(_ error: any Error) -> String {
    switch error {
    case DecodingError.dataCorrupted(let context):
      return context.underlyingError.map { "\($0)" } ?? context.debugDescription
    case DecodingError.keyNotFound(let key, let context):
      return "\(place(context.codingPath + [key])) is missing"
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
      return "\(place(context.codingPath)): \(context.debugDescription)"
    default:
      return "\(error)"
    }
  }

  static func place(_ path: [any CodingKey]) -> String {
    path.isEmpty ? "the top level" : path.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
  }
}
