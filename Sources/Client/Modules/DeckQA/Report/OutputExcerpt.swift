/// A step's output as failure blocks and reports show it: at most 2,000 characters (or `limit`),
/// the start kept, then how much more there was. Pure text, so the report fuzzer compiles it
/// with the reports.
enum OutputExcerpt {
  static func of(_ text: String, limit: Int = 2000) -> String {
    if text.isEmpty { return "(empty)" }
    guard text.count > limit else { return text }
    return String(text.prefix(limit)) + "… (\(text.count - limit) more characters)"
  }

  /// The last `count` non-empty lines of `text`, at most 600 characters.
  static func lastLines(_ text: String, _ count: Int) -> String {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: true).suffix(count)
    return of(lines.joined(separator: "\n"), limit: 600)
  }
}
