import PrefsRules

/// Tab completion of the values the catalog knows: `key=` for `set`, then the key's enumerated
/// values (`bats=L`, `state=CA`, `enableDailyDigest=true`); school preference values by type;
/// dashboard names, sections and template slugs. Pure: nothing is sent, so completion is instant
/// in the REPL and in the bash, zsh and fish scripts.
enum PrefsCompletion {
  /// The category named in `words` (the first word that is one), for arguments after it.
  static func category(in words: [String]) -> PrefsCategory? {
    words.lazy.compactMap { PrefsCategory(rawValue: $0) }.first
  }

  /// `key=` for the category's keys starting with `prefix`; after `=`, the key's values (for a
  /// list, the values of its last item). Positions are the sport's named on the line
  /// (`primarySport=Soccer`), else every sport's.
  static func assignments(words: [String], prefix: String) -> [String] {
    guard let category = category(in: words), category.acceptsAssignments else { return [] }
    if let equals = prefix.firstIndex(of: "=") {
      let key = String(prefix[..<equals])
      var typed = String(prefix[prefix.index(after: equals)...])
      guard let spec = try? category.field(named: key) else { return [] }
      var head = "\(key)="
      if spec.kind == .stringList, let comma = typed.lastIndex(of: ",") {
        head += typed[...comma]
        typed = String(typed[typed.index(after: comma)...])
      }
      let candidates = spec.rule == .position ? positions(words: words) : spec.completions
      return matching(candidates, typed.trimming(.whitespaces)).map { head + $0 }
    }
    return matching(category.fields.map(\.key), prefix).map { "\($0)=" }
  }

  /// The positions of the sport a `primarySport=` (or `sport=`) word on the line names, or of
  /// every sport when none does.
  static func positions(words: [String]) -> [String] {
    for word in words.reversed() {
      guard let equals = word.firstIndex(of: "="),
        (try? PrefsCategory.player.field(named: String(word[..<equals])))?.key == "primarySport"
      else { continue }
      if let sport = Sport.matching(String(word[word.index(after: equals)...])) { return sport.positions }
    }
    return Sport.allPositions
  }

  /// The values of a school preference type (the word before the one being completed).
  static func schoolValues(words: [String], prefix: String) -> [String] {
    guard let type = words.lazy.compactMap({ SchoolPreferenceType(rawValue: $0) }).first else { return [] }
    return matching(type.spec.completions, prefix)
  }

  static let dashboardNames = StatsCard.allCases.map(\.rawValue) + DashboardWidget.allCases.map(\.rawValue)
  static let sections = DashboardSection.allCases.map(\.rawValue)
  static let templates = SchoolTemplate.allCases.map(\.slug)
  static let schoolTypes = SchoolPreferenceType.allCases.map(\.rawValue)

  /// The candidates that start with `prefix`, ignoring case.
  static func matching(_ candidates: [String], _ prefix: String) -> [String] {
    candidates.filter { $0.lowercased().hasPrefix(prefix.lowercased()) }
  }
}
