import DeckValues
import FoundationEssentials

/// A value of any category, tagged with it: for code that picks the category at run time (the CLI's
/// `CATEGORY` argument, the sandbox's `/api/user/preferences/[category]` routes, export files).
/// Encodes as the plain value.
public enum PrefsValue: Sendable, Equatable, Encodable {
  case player(PlayerDetails)
  case school(SchoolPreferences)
  case notifications(NotificationSettings)
  case dashboard(DashboardWidgetVisibility)
  case location(HomeLocation)

  /// The value itself.
  public var model: any PrefsModel {
    switch self {
    case .player(let value): value
    case .school(let value): value
    case .notifications(let value): value
    case .dashboard(let value): value
    case .location(let value): value
    }
  }

  public var category: PrefsCategory { type(of: model).category }

  public static func defaults(for category: PrefsCategory) -> PrefsValue {
    func defaults<Model: PrefsModel>(_ type: Model.Type) -> PrefsValue { type.defaults.tagged }
    return defaults(category.modelType)
  }

  /// `json` as a value of `category`; see `PrefsModel.read`.
  public static func read(_ json: JSONValue, as category: PrefsCategory) -> (
    value: PrefsValue, issues: [ValidationIssue]
  ) {
    func read<Model: PrefsModel>(_ type: Model.Type) -> (PrefsValue, [ValidationIssue]) {
      let (value, issues) = type.read(json)
      return (value.tagged, issues)
    }
    return read(category.modelType)
  }

  /// `json` as a value of `category`, normalised, with every problem; see `PrefsModel.readAll`.
  public static func readAll(_ json: JSONValue, as category: PrefsCategory) -> (
    value: PrefsValue, issues: [ValidationIssue]
  ) {
    func read<Model: PrefsModel>(_ type: Model.Type) -> (PrefsValue, [ValidationIssue]) {
      let (value, issues) = type.readAll(json)
      return (value.tagged, issues)
    }
    return read(category.modelType)
  }

  /// A stored blob of `category`; see `PrefsModel.decodeStored`.
  public static func decodeStored(_ category: PrefsCategory, _ data: Data?) -> (
    value: PrefsValue, warnings: [String]
  ) {
    func decode<Model: PrefsModel>(_ type: Model.Type) -> (PrefsValue, [String]) {
      let stored = type.decodeStored(data)
      return (stored.value.tagged, stored.warnings)
    }
    return decode(category.modelType)
  }

  public func normalized() -> PrefsValue { model.normalized().tagged }
  public func validate() -> Validation { model.validate() }

  /// The normalised value, or every problem it has.
  public func validated() throws(Validation) -> PrefsValue {
    let normalized = normalized()
    try normalized.validate().check()
    return normalized
  }

  /// What changed from `self` to `new`; empty when they are of different categories.
  public func changes(to new: PrefsValue) -> [FieldChange] {
    func changes<Model: PrefsModel>(_ old: Model) -> [FieldChange] {
      guard let new = new.model as? Model else { return [] }
      return old.changes(to: new)
    }
    return changes(model)
  }

  public func encode(to encoder: any Encoder) throws { try model.encode(to: encoder) }
}

extension PrefsValue {
  /// This value as a change of `old` should be saved, with a note for each thing that follows
  /// from the change itself: a home location whose address changed loses the old address's
  /// coordinates (`HomeLocation.clearingStaleCoordinates`).
  public func reconciled(with old: PrefsValue) -> (value: PrefsValue, notes: [String]) {
    guard case .location(let new) = self, case .location(let previous) = old else { return (self, []) }
    let cleared = new.clearingStaleCoordinates(from: previous)
    guard cleared != new else { return (self, []) }
    return (
      .location(cleared),
      [
        "the address changed, so the old address's coordinates were cleared; look them up with: deck prefs location set --geocode"
      ]
    )
  }

  /// The value with `key=value` assignments applied (see `FieldRecord.applying`), and what
  /// changed. School preferences are a list and take no assignments.
  public func applying(_ assignments: [String]) throws(Validation) -> (value: PrefsValue, changes: [FieldChange]) {
    func apply<Record: FieldRecord>(_ record: Record) throws(Validation) -> (PrefsValue, [FieldChange]) {
      let (value, changes) = try record.applying(assignments)
      return (value.tagged, changes)
    }
    guard let record = model as? any FieldRecord else {
      throw Validation([
        ValidationIssue(
          field: category.rawValue, value: "", allowed: "school add|move|remove|template",
          message:
            "\(category.rawValue): school preferences are a list and take no key=value; use school add, move, remove or template"
        )
      ])
    }
    return try apply(record)
  }
}
