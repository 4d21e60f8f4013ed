/// Normalisation and validation of the school preference list.
extension SchoolPreferences {
  /// Values normalised for their type (text trimmed, enumerated values in their canonical spelling,
  /// state codes upper-cased, blank and repeated list items dropped), ids trimmed, empty
  /// `templateUsed`/`lastUpdated` cleared. Order and priorities are kept: they are validated, not repaired.
  public func normalized() -> SchoolPreferences {
    var copy = self
    copy.preferences = preferences.map { preference in
      let spec = preference.type.spec
      var normalized = SchoolPreference(
        id: preference.id.trimmed, type: preference.type, value: preference.value,
        priority: preference.priority, isDealbreaker: preference.isDealbreaker, category: preference.category)
      normalized.value =
        PreferenceValue(json: spec.normalize(preference.value.json), kind: spec.kind) ?? preference.value
      return normalized
    }
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
      let idField = SchoolPreference.field(position, "id")
      issues += FieldRule.text.check(.string(preference.id), field: idField, kind: .string)
      issues += duplicates[idField] ?? []
      if preference.category != preference.type.category {
        issues.append(
          .invalid(
            SchoolPreference.field(position, "category"), JSONValue.quoted(preference.category.rawValue),
            "does not match type \(preference.type.rawValue)", allowed: preference.type.category.rawValue))
      }
      issues += preference.type.spec.check(
        preference.value.json, field: SchoolPreference.field(position, preference.type.rawValue))
    }
    let priorities = preferences.map(\.priority)
    if priorities.sorted() != Array(1..<(preferences.count + 1)) {
      issues.append(
        .invalid(
          "priorities", JSONValue.array(priorities.map(JSONValue.int)).literal,
          "are not numbered 1 to \(preferences.count)", allowed: "1–\(preferences.count), each once"))
    }
    for (key, value) in [("templateUsed", templateUsed), ("lastUpdated", lastUpdated)] {
      if let value { issues += FieldRule.text.check(.string(value), field: key, kind: .string) }
    }
    return Validation(issues)
  }
}

extension String {
  /// The string, or nil when it is empty.
  var nonEmpty: String? { isEmpty ? nil : self }
}
