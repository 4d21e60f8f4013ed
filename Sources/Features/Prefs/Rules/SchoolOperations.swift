import DeckValues

/// A school preference criterion without its place in the list: a type and a value of that type.
/// What the add dialog (and `school add TYPE VALUE`) produces, and what templates are made of.
public struct SchoolCriterion: Sendable, Equatable {
  public var type: SchoolPreferenceType
  public var value: PreferenceValue

  public init(_ type: SchoolPreferenceType, _ value: PreferenceValue) {
    self.type = type
    self.value = value
  }

  /// `TYPE VALUE` as typed: the type by name (see `SchoolPreferenceType.named`), the value read for
  /// the type (whole numbers; lists comma-separated; booleans yes/no/true/false/on/off/1/0; text as
  /// is), normalised and checked. Problems name the type and what it allows.
  public static func parse(type typeName: String, value text: String) throws(Validation) -> SchoolCriterion {
    let type = try SchoolPreferenceType.named(typeName)
    let spec = type.spec
    let text = text.trimmed
    guard let raw = spec.rule.parse(text, as: spec.kind), let value = PreferenceValue(json: raw, kind: spec.kind)
    else {
      throw Validation([
        .wrongType(type.rawValue, JSONValue.quoted(text), expected: spec.kind.noun, allowed: spec.allowed)
      ])
    }
    let criterion = SchoolCriterion(type, value).normalized()
    try criterion.validate().check()
    return criterion
  }

  /// The value normalised for its type.
  public func normalized() -> SchoolCriterion {
    let spec = type.spec
    return SchoolCriterion(type, PreferenceValue(json: spec.normalize(value.json), kind: spec.kind) ?? value)
  }

  /// The problems of the value for its type, each naming the type.
  public func validate() -> Validation { Validation(type.spec.check(value.json)) }
}

/// The list operations of the school preferences page. Each returns a new value with priorities
/// renumbered 1…n in list order (preferences are taken in priority order first).
extension SchoolPreferences {
  /// The preferences by priority, stored order breaking ties.
  public var ordered: [SchoolPreference] {
    preferences.enumerated()
      .sorted { ($0.element.priority, $0.offset) < ($1.element.priority, $1.offset) }
      .map(\.element)
  }

  /// `criterion` appended at priority n+1 under `id` (which must be new), after normalising and
  /// checking its value.
  public func adding(_ criterion: SchoolCriterion, isDealbreaker: Bool = false, id: String) throws(Validation)
    -> SchoolPreferences
  {
    let criterion = criterion.normalized()
    var issues = criterion.validate().issues
    let id = id.trimmed
    if id.isEmpty || preferences.contains(where: { $0.id == id }) {
      let problem = id.isEmpty ? "is empty" : "is already used"
      issues.append(.invalid("id", JSONValue.quoted(id), problem, allowed: "a unique id"))
    }
    try Validation(issues).check()
    let added = SchoolPreference(
      id: id, type: criterion.type, value: criterion.value, priority: preferences.count + 1,
      isDealbreaker: isDealbreaker)
    return renumbered(ordered + [added])
  }

  /// `TYPE VALUE` as typed (see `SchoolCriterion.parse`) appended at priority n+1 under `id`.
  public func adding(type: String, value: String, isDealbreaker: Bool = false, id: String) throws(Validation)
    -> SchoolPreferences
  {
    try adding(SchoolCriterion.parse(type: type, value: value), isDealbreaker: isDealbreaker, id: id)
  }

  /// The preference at `from` moved to `to` (both priorities, 1…n), as a drag in the list does.
  public func moving(fromPriority from: Int, toPriority to: Int) throws(Validation) -> SchoolPreferences {
    var issues: [ValidationIssue] = []
    let source = position(of: from, field: "from", issues: &issues)
    let target = position(of: to, field: "to", issues: &issues)
    try Validation(issues).check()
    var list = ordered
    list.insert(list.remove(at: source), at: target)
    return renumbered(list)
  }

  /// The list without the preference with `id`.
  public func removing(id: String) throws(Validation) -> SchoolPreferences {
    guard preferences.contains(where: { $0.id == id }) else {
      let ids = ordered.map(\.id)
      let issue =
        ids.isEmpty
        ? ValidationIssue(
          field: "id", value: JSONValue.quoted(id), problem: "does not exist", advice: "the list is empty", allowed: "")
        : .invalid("id", JSONValue.quoted(id), "does not exist", allowed: FieldRule.orList(ids))
      throw Validation([issue])
    }
    return renumbered(ordered.filter { $0.id != id })
  }

  /// The list without the preference at `priority`.
  public func removing(priority: Int) throws(Validation) -> SchoolPreferences {
    var issues: [ValidationIssue] = []
    let index = position(of: priority, field: "priority", issues: &issues)
    try Validation(issues).check()
    var list = ordered
    list.remove(at: index)
    return renumbered(list)
  }

  /// The preference at `priority` marked (or unmarked) as a dealbreaker.
  public func settingDealbreaker(_ isDealbreaker: Bool, priority: Int) throws(Validation) -> SchoolPreferences {
    var issues: [ValidationIssue] = []
    let index = position(of: priority, field: "priority", issues: &issues)
    try Validation(issues).check()
    var list = ordered
    list[index].isDealbreaker = isDealbreaker
    return renumbered(list)
  }

  /// The index in `ordered` of `priority`, or an issue naming `field` and the priorities there are.
  private func position(of priority: Int, field: String, issues: inout [ValidationIssue]) -> Int {
    let count = preferences.count
    if priority >= 1 && priority <= count { return priority - 1 }
    issues.append(
      count == 0
        ? ValidationIssue(
          field: field, value: String(priority), problem: "does not exist", advice: "the list is empty", allowed: "")
        : .outOfRange(field, String(priority), allowed: "1–\(count)"))
    return 0
  }

  /// `list` with priorities 1…n in its order.
  func renumbered(_ list: [SchoolPreference]) -> SchoolPreferences {
    var copy = self
    copy.preferences = list.enumerated().map { offset, preference in
      var preference = preference
      preference.priority = offset + 1
      return preference
    }
    return copy
  }
}

extension SchoolPreferences {
  /// A school list's JSON with its new rows completed, as an import reads it: a preference
  /// (an object) without an `id` gets one from `newID`; one without a `priority` comes after
  /// the highest priority given, in the list's order. Everything else is left for `read`.
  public static func numberingNewRows(_ json: JSONValue, newID: () -> String) -> JSONValue {
    guard case .object(var object) = json, case .array(let items) = object["preferences"] else { return json }
    let given = items.compactMap { item -> Int? in
      guard case .object(let preference) = item, let raw = preference["priority"] else { return nil }
      return FieldKind.int.coerce(raw)?.wholeNumber
    }
    var next = (given.max() ?? 0).addingReportingOverflow(1)
    object["preferences"] = .array(
      items.map { item in
        guard case .object(var preference) = item else { return item }
        if [nil, .null].contains(preference["id"]) { preference["id"] = .string(newID()) }
        if [nil, .null].contains(preference["priority"]), !next.overflow {
          preference["priority"] = .int(next.partialValue)
          next = next.partialValue.addingReportingOverflow(1)
        }
        return .object(preference)
      })
    return .object(object)
  }
}
