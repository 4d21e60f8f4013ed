/// The five preference categories; the raw value is the V2 API path segment
/// (`/api/user/preferences/<category>`).
public enum PrefsCategory: String, Sendable, Codable, CaseIterable {
  case player, school, notifications, dashboard, location

  /// The page title.
  public var title: String {
    switch self {
    case .player: "Player Details"
    case .school: "School Preferences"
    case .notifications: "Notifications"
    case .dashboard: "Dashboard"
    case .location: "Home Location"
    }
  }

  /// How sentences name the category's settings ("stored player details are …").
  public var noun: String {
    switch self {
    case .player: "player details"
    case .school: "school preferences"
    case .notifications: "notifications"
    case .dashboard: "dashboard settings"
    case .location: "location settings"
    }
  }

  /// The catalog: every settable key in form order. For school, one entry per preference type
  /// (the `TYPE` of `school add TYPE VALUE`), sectioned by preference category.
  public var fields: [FieldSpec] {
    switch self {
    case .player: PlayerDetails.specs
    case .school: SchoolPreferenceType.allCases.map(\.spec)
    case .notifications: NotificationSettings.specs
    case .dashboard: DashboardWidgetVisibility.specs
    case .location: HomeLocation.specs
    }
  }

  /// The form sections in order, for grouping human output.
  public var sections: [String] {
    fields.reduce(into: []) { sections, field in
      if sections.last != field.section { sections.append(field.section) }
    }
  }

  /// Whether `deck prefs set <category> key=value` applies (every category but the school list).
  public var acceptsAssignments: Bool { self != .school }

  /// The catalog entry a user's name refers to: the JSON key, any spelling of it ignoring case,
  /// `-`, `_` and spaces (`graduation-year`), or an alias (`height`); otherwise an issue suggesting
  /// the nearest keys.
  public func field(named name: String) throws(Validation) -> FieldSpec {
    try NameMatching.resolve(name, in: fields, what: entryNoun) { [$0.key] + $0.aliases }
  }

  /// What one catalog entry is called in "unknown …" messages.
  var entryNoun: String {
    switch self {
    case .school: "school preference type"
    case .dashboard: "dashboard item"
    default: "\(rawValue) field"
    }
  }

  /// The category a user's name refers to (`player`, `Player Details`, `player-details`, …).
  public static func named(_ name: String) throws(Validation) -> PrefsCategory {
    try NameMatching.resolve(name, in: allCases, what: "category") { [$0.rawValue, $0.title] }
  }

  /// The Swift type of the category's value.
  public var modelType: any PrefsModel.Type {
    switch self {
    case .player: PlayerDetails.self
    case .school: SchoolPreferences.self
    case .notifications: NotificationSettings.self
    case .dashboard: DashboardWidgetVisibility.self
    case .location: HomeLocation.self
    }
  }
}
