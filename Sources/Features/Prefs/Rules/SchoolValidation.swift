import DeckValues

/// Normalisation and validation of the school preference list.
extension SchoolPreferences {
  /// Values normalised for their type (text trimmed, enumerated values in their canonical spelling,
  /// state codes upper-cased, blank and repeated list items dropped), ids trimmed, empty
  /// `templateUsed`/`lastUpdated` cleared. Order and priorities are kept: they are validated, not repaired.
  public func normalized() -> SchoolPreferences {
    var copy = self
    copy.preferences = preferences.map { $0.normalized() }
    copy.templateUsed = templateUsed?.trimmed.nonEmpty
    copy.lastUpdated = lastUpdated?.trimmed.nonEmpty
    return copy
  }

  /// Checks each preference (id present and unique, category matching the type, value of the type's
  /// JSON type and within its options) and that the priorities are exactly 1…n.
  public func validate() -> Validation {
    var issues: [ValidationIssue] = []
    let duplicates = Dictionary(grouping: duplicateIDIssues, by: \.field)
    for (offset, preference) in preferences.enumerated() {
      let position = offset + 1
      issues += preference.issues(position: position)
      issues += duplicates[SchoolPreference.field(position, "id")] ?? []
    }
    let priorities = preferences.map(\.priority)
    if priorities.sorted() != Array(1..<(preferences.count + 1)) {
      issues.append(
        .invalid(
          "priorities", JSONValue.array(priorities.map(JSONValue.int)).literal,
          "are not numbered 1 to \(preferences.count)", allowed: "1–\(preferences.count), each once"))
    }
    issues += textIssues
    return Validation(issues)
  }

  /// The problems of `templateUsed` and `lastUpdated`.
  var textIssues: [ValidationIssue] {
    [("templateUsed", templateUsed), ("lastUpdated", lastUpdated)].flatMap { key, value in
      value.map { FieldRule.text.check(.string($0), field: key, kind: .string) } ?? []
    }
  }

  /// `json` as school preferences, normalised, with every problem at once. When some
  /// preferences do not read, those that do are still checked, each named by its place in the
  /// list (the priorities are not: the list is incomplete).
  public static func readAll(_ json: JSONValue) -> (value: SchoolPreferences, issues: [ValidationIssue]) {
    let (value, issues) = read(json)
    let normalized = value.normalized()
    guard !issues.isEmpty else { return (normalized, normalized.validate().issues) }
    var more: [ValidationIssue] = []
    if case .object(let object) = json, case .array(let items) = object["preferences"] {
      for (offset, item) in items.enumerated() {
        let (preference, problems) = SchoolPreference.read(item, position: offset + 1)
        guard let preference, problems.isEmpty else { continue }
        more += preference.normalized().issues(position: offset + 1)
      }
    }
    return (normalized, issues + more + normalized.textIssues)
  }
}

extension SchoolPreference {
  /// The preference with its id trimmed and its value normalised for its type.
  func normalized() -> SchoolPreference {
    let spec = type.spec
    var copy = SchoolPreference(
      id: id.trimmed, type: type, value: value, priority: priority, isDealbreaker: isDealbreaker, category: category)
    copy.value = PreferenceValue(json: spec.normalize(value.json), kind: spec.kind) ?? value
    return copy
  }

  /// The problems of the preference at `position` on its own: its id, its category (the
  /// type's), its value.
  func issues(position: Int) -> [ValidationIssue] {
    var issues = FieldRule.text.check(.string(id), field: SchoolPreference.field(position, "id"), kind: .string)
    if category != type.category {
      issues.append(
        .invalid(
          SchoolPreference.field(position, "category"), JSONValue.quoted(category.rawValue),
          "does not match type \(type.rawValue)", allowed: type.category.rawValue))
    }
    return issues + type.spec.check(value.json, field: SchoolPreference.field(position, type.rawValue))
  }
}

extension String {
  /// The string, or nil when it is empty.
  var nonEmpty: String? { isEmpty ? nil : self }
}
