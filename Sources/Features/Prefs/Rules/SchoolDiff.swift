/// The diff of school preferences: one change per preference added, removed, altered or moved
/// (matched by id), named by its type, with `SchoolPreference.summary` as old and new
/// (`2. D1, D3 (dealbreaker)`); plus `templateUsed`. `lastUpdated` is a timestamp and not
/// reported. A preference whose priority number changed only because the list was renumbered
/// around it (another moved, was removed or added) is not a change: one `school move` is one
/// change, however many preferences it renumbers.
extension SchoolPreferences {
  public func changes(to new: SchoolPreferences) -> [FieldChange] {
    let newIDs = Set(new.preferences.map(\.id))
    let oldByID = Dictionary(preferences.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    var changes = ordered.filter { !newIDs.contains($0.id) }.map {
      FieldChange(field: $0.type.rawValue, old: $0.summary, new: nil)
    }
    let newOrdered = new.ordered
    let kept = Self.keptInPlace(newOrdered.map(\.id), among: ordered.map(\.id))
    for (index, preference) in newOrdered.enumerated() {
      let old = oldByID[preference.id]
      if var renumbered = old, kept.contains(index) {
        renumbered.priority = preference.priority
        if renumbered == preference { continue }
      }
      if old != preference {
        changes.append(FieldChange(field: preference.type.rawValue, old: old?.summary, new: preference.summary))
      }
    }
    if templateUsed != new.templateUsed {
      changes.append(FieldChange(field: "templateUsed", old: templateUsed, new: new.templateUsed))
    }
    return changes
  }

  /// The indices of `newIDs` that kept their order relative to each other from `oldIDs`: the
  /// longest run of ids in the new list whose places in the old list increase. The others moved.
  static func keptInPlace(_ newIDs: [String], among oldIDs: [String]) -> Set<Int> {
    var rank: [String: Int] = [:]
    for (offset, id) in oldIDs.enumerated() where rank[id] == nil { rank[id] = offset }
    // Patience sorting: `tails[k]` is the index (in newIDs) ending the best run of length k+1.
    var tails: [Int] = []
    var previous = [Int?](repeating: nil, count: newIDs.count)
    for (index, id) in newIDs.enumerated() {
      guard let place = rank[id] else { continue }
      var low = 0
      var high = tails.count
      while low < high {
        let middle = (low + high) / 2
        if rank[newIDs[tails[middle]]] ?? 0 < place { low = middle + 1 } else { high = middle }
      }
      previous[index] = low > 0 ? tails[low - 1] : nil
      if low == tails.count { tails.append(index) } else { tails[low] = index }
    }
    var kept: Set<Int> = []
    var cursor = tails.last
    while let index = cursor {
      kept.insert(index)
      cursor = previous[index]
    }
    return kept
  }
}
