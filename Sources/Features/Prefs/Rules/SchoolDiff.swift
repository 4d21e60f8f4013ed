/// The diff of school preferences: one change per preference added, removed or altered (matched by
/// id; a move shows as a priority change of each preference that moved), named by its type, with
/// `SchoolPreference.summary` as old and new (`2. D1, D3 (dealbreaker)`); plus `templateUsed`.
/// `lastUpdated` is a timestamp and not reported.
extension SchoolPreferences {
  public func changes(to new: SchoolPreferences) -> [FieldChange] {
    let newIDs = Set(new.preferences.map(\.id))
    let oldByID = Dictionary(preferences.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    var changes = ordered.filter { !newIDs.contains($0.id) }.map {
      FieldChange(field: $0.type.rawValue, old: $0.summary, new: nil)
    }
    for preference in new.ordered {
      let old = oldByID[preference.id]
      if old != preference {
        changes.append(FieldChange(field: preference.type.rawValue, old: old?.summary, new: preference.summary))
      }
    }
    if templateUsed != new.templateUsed {
      changes.append(FieldChange(field: "templateUsed", old: templateUsed, new: new.templateUsed))
    }
    return changes
  }
}
