import DeckValues

/// Matching names typed by users against a list of valid names: exact, then ignoring case, `-`, `_`,
/// `.` and spaces (so `social-media` and `Social Media` find `socialMedia`), and otherwise suggesting
/// the nearest valid names by edit distance.
enum NameMatching {
  /// `name` lower-cased with everything but letters and digits removed.
  static func folded(_ name: String) -> String {
    String(name.lowercased().filter { $0.isLetter || $0.isNumber })
  }

  /// The index of the first candidate whose names (key first, then aliases) match `name`.
  static func index(of name: String, in candidates: [[String]]) -> Int? {
    if let exact = candidates.firstIndex(where: { $0.contains(name) }) { return exact }
    let wanted = folded(name)
    guard !wanted.isEmpty else { return nil }
    return candidates.firstIndex { $0.contains { folded($0) == wanted } }
  }

  /// Up to `limit` candidates nearest to `name`: those within a small edit distance (or containing it,
  /// or contained in it), or else simply the nearest.
  static func nearest(to name: String, in candidates: [String], limit: Int = 3) -> [String] {
    let wanted = String(folded(name).prefix(64))
    let scored = candidates.enumerated().map { index, candidate -> (score: Int, index: Int, name: String) in
      let other = folded(candidate)
      let contains = wanted.count >= 3 && (other.contains(wanted) || wanted.contains(other))
      return (contains ? 1 : distance(wanted, other), index, candidate)
    }.sorted { ($0.score, $0.index) < ($1.score, $1.index) }
    let threshold = max(2, wanted.count / 3)
    let close = scored.filter { $0.score <= threshold }
    return (close.isEmpty ? scored : close).prefix(limit).map(\.name)
  }

  /// Levenshtein distance.
  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...b.count {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }

  /// The item of `items` whose names (its first name is the canonical one) match `name`, or an issue
  /// `name: unknown <what>; did you mean …?` suggesting the nearest canonical names.
  static func resolve<Item>(_ name: String, in items: [Item], what: String, names: (Item) -> [String])
    throws(Validation) -> Item
  {
    let name = name.trimmed
    let allNames = items.map(names)
    guard let index = index(of: name, in: allNames) else {
      throw Validation([unknown(name, what: what, candidates: allNames.compactMap(\.first))])
    }
    return items[index]
  }

  /// The issue for an unknown name: `name: unknown <what>; did you mean a, b or c?`; with `within`
  /// (the object holding it, e.g. `statsCards`), the field is shown as `within.name`.
  static func unknown(_ name: String, what: String, candidates: [String], within: String? = nil) -> ValidationIssue {
    let suggestions = nearest(to: name, in: candidates)
    let allowed = FieldRule.orList(suggestions)
    let bare = name.isEmpty ? "\"\"" : name.count > 60 ? JSONValue.quoted(name) : name
    let shown = within.map { "\($0).\(bare)" } ?? bare
    return ValidationIssue(
      field: shown, value: JSONValue.quoted(name), allowed: allowed,
      message: "\(shown): unknown \(what); did you mean \(allowed)?")
  }
}
