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

  /// `key=` for the category's keys starting with `prefix`; after `=`, the key's values.
  static func assignments(words: [String], prefix: String) -> [String] {
    guard let category = category(in: words), category.acceptsAssignments else { return [] }
    if let equals = prefix.firstIndex(of: "=") {
      let key = String(prefix[..<equals])
      let typed = String(prefix[prefix.index(after: equals)...])
      guard let spec = try? category.field(named: key) else { return [] }
      return matching(spec.completions, typed).map { "\(key)=\($0)" }
    }
    return matching(category.fields.map(\.key), prefix).map { "\($0)=" }
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
