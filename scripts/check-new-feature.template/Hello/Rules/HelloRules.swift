/// The spec's logic, pure: how a name is greeted.
public enum HelloRules {
  /// The name with surrounding whitespace removed, or nil when nothing is left.
  public static func name(_ text: String) -> String? {
    let trimmed = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    return trimmed.isEmpty ? nil : trimmed
  }

  public static func greeting(for name: String) -> String { "Hello, \(name)!" }
}
