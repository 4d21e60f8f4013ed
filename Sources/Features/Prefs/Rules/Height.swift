import FoundationEssentials

/// Height as the iOS pickers show it (feet 4–7, inches 0–11) and as people type it.
public enum Height {
  /// What `heightInches` accepts: the pickers' 4'0" to 7'11".
  public static let range = 48...95

  /// Inches from `5'11"`, `5' 11`, `5ft11in`, `5 ft 11 in`, `5ft`, `5-11`, `71`, `71in` or `71"`
  /// (curly quotes and primes too), or nil when the text is none of these. Inches after feet must be
  /// 0–11; the total is not range-checked here.
  public static func parseInches(_ text: String) -> Int? {
    var scanner = Scanner(normalized(text))
    guard let first = scanner.number() else { return nil }
    if scanner.unit(inchUnits) != nil || scanner.isAtEnd {
      return scanner.isAtEnd ? first : nil
    }
    guard let feetUnit = scanner.unit(feetUnits) else { return nil }
    if scanner.isAtEnd { return feetUnit == "-" ? nil : first * 12 }
    guard let inches = scanner.number(), inches <= 11 else { return nil }
    _ = scanner.unit(inchUnits)
    return scanner.isAtEnd ? first * 12 + inches : nil
  }

  /// `71` as `5'11"`.
  public static func format(inches: Int) -> String {
    guard inches >= 0 else { return "\(inches) in" }
    return "\(inches / 12)'\(inches % 12)\""
  }

  static let feetUnits = ["feet", "foot", "ft", "'", "-"]
  static let inchUnits = ["inches", "inch", "in", "\""]

  static func normalized(_ text: String) -> String {
    let unified = text.lowercased().map { "’′‘`".contains($0) ? "'" : "”″“".contains($0) ? "\"" : $0 }
    return String(unified).replacing("''", with: "\"")
  }

  /// Reads numbers and unit words, skipping spaces between them.
  struct Scanner {
    var rest: Substring
    init(_ text: String) { rest = Substring(text) }

    var isAtEnd: Bool {
      mutating get {
        skipSpaces()
        return rest.isEmpty
      }
    }

    mutating func skipSpaces() { rest = rest.drop(while: \.isWhitespace) }

    /// One to three ASCII digits.
    mutating func number() -> Int? {
      skipSpaces()
      let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
      guard (1...3).contains(digits.count), let value = Int(digits) else { return nil }
      rest = rest.dropFirst(digits.count)
      return value
    }

    /// The first of `units` the text continues with, consumed.
    mutating func unit(_ units: [String]) -> String? {
      skipSpaces()
      guard let match = units.first(where: { rest.hasPrefix($0) }) else { return nil }
      rest = rest.dropFirst(match.count)
      return match
    }
  }
}
