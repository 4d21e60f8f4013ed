/// A toggle of the dashboard page: a summary statistics card or a widget.
public protocol DashboardItem: RawRepresentable<String>, CaseIterable, Hashable, Sendable
where AllCases == [Self] {
  /// The section the item belongs to.
  static var section: DashboardSection { get }
  /// The name shown on the toggle card.
  var label: String { get }
}

/// The two sections of the dashboard page; the raw value is the JSON key of the section.
public enum DashboardSection: String, Sendable, Codable, CaseIterable {
  case statsCards, widgets

  /// The form section title.
  public var title: String {
    switch self {
    case .statsCards: "Summary Statistics"
    case .widgets: "Dashboard Widgets"
    }
  }

  /// The section a user's name refers to (`statsCards`, `stats-cards`, `widgets`, or the title).
  public static func named(_ name: String) throws(Validation) -> DashboardSection {
    try NameMatching.resolve(name, in: allCases, what: "dashboard section") { [$0.rawValue, $0.title] }
  }
}

/// The 8 summary statistics cards.
public enum StatsCard: String, DashboardItem {
  case coaches, schools, interactions, offers, events, performance, notifications, socialMedia

  public static let section = DashboardSection.statsCards

  /// The spec's grid labels.
  public var label: String {
    switch self {
    case .coaches: "Coaches"
    case .schools: "Schools"
    case .interactions: "Interactions"
    case .offers: "Offers"
    case .events: "Events"
    case .performance: "Performance"
    case .notifications: "Notifications"
    case .socialMedia: "Social Media"
    }
  }
}

/// The 17 dashboard widgets.
public enum DashboardWidget: String, DashboardItem {
  case recentNotifications, linkedAccounts, recruitingCalendar, quickTasks, atAGlanceSummary
  case offerStatusOverview, interactionTrendChart, schoolInterestChart, schoolMapWidget, coachFollowupWidget
  case eventsSummary, performanceSummary, recentDocuments, interactionStats, schoolStatusOverview
  case coachResponsiveness, upcomingDeadlines

  public static let section = DashboardSection.widgets

  public var label: String {
    switch self {
    case .recentNotifications: "Recent Notifications"
    case .linkedAccounts: "Linked Accounts"
    case .recruitingCalendar: "Recruiting Calendar"
    case .quickTasks: "Quick Tasks"
    case .atAGlanceSummary: "At a Glance Summary"
    case .offerStatusOverview: "Offer Status Overview"
    case .interactionTrendChart: "Interaction Trend Chart"
    case .schoolInterestChart: "School Interest Chart"
    case .schoolMapWidget: "School Map"
    case .coachFollowupWidget: "Coach Follow-Up"
    case .eventsSummary: "Events Summary"
    case .performanceSummary: "Performance Summary"
    case .recentDocuments: "Recent Documents"
    case .interactionStats: "Interaction Stats"
    case .schoolStatusOverview: "School Status Overview"
    case .coachResponsiveness: "Coach Responsiveness"
    case .upcomingDeadlines: "Upcoming Deadlines"
    }
  }
}

/// Which items of one section are shown; everything is shown by default.
public struct DashboardVisibility<Item: DashboardItem>: Sendable, Equatable {
  /// The hidden items (storing these keeps "all shown" the empty default).
  public private(set) var hidden: Set<Item>

  public init(hidden: Set<Item> = []) { self.hidden = hidden }

  public static var allShown: Self { Self() }
  public static var allHidden: Self { Self(hidden: Set(Item.allCases)) }

  /// Whether `item` is shown.
  public subscript(item: Item) -> Bool {
    get { !hidden.contains(item) }
    set { if newValue { hidden.remove(item) } else { hidden.insert(item) } }
  }

  /// The shown items in catalog order.
  public var shown: [Item] { Item.allCases.filter { self[$0] } }
}

public typealias StatsCardVisibility = DashboardVisibility<StatsCard>
public typealias WidgetVisibility = DashboardVisibility<DashboardWidget>

/// The dashboard's visibility settings (spec 2D): JSON `{"statsCards": {"coaches": true, …},
/// "widgets": {"recentNotifications": true, …}}`. Missing items read as shown.
public struct DashboardWidgetVisibility: FieldRecord {
  public var statsCards: StatsCardVisibility
  public var widgets: WidgetVisibility

  public init(statsCards: StatsCardVisibility = .allShown, widgets: WidgetVisibility = .allShown) {
    self.statsCards = statsCards
    self.widgets = widgets
  }

  public static let category = PrefsCategory.dashboard
  /// Everything shown ("Reset to Defaults enables all").
  public static let defaults = DashboardWidgetVisibility()
  public var tagged: PrefsValue { .dashboard(self) }

  /// The catalog: one boolean per item, keyed by its JSON name, in the two sections.
  public static let fields: [Field<DashboardWidgetVisibility>] =
    StatsCard.allCases.map { Field(item: $0, \.statsCards[$0]) }
    + DashboardWidget.allCases.map { Field(item: $0, \.widgets[$0]) }
}

extension Field where Record == DashboardWidgetVisibility {
  fileprivate init<Item: DashboardItem>(item: Item, _ path: any WritableKeyPath<Record, Bool> & Sendable) {
    // The label is an alias where spelling differs (`School Map` for schoolMapWidget): what the
    // app's grid shows names the item too.
    let label = NameMatching.folded(item.label) == NameMatching.folded(item.rawValue) ? [] : [item.label]
    self.init(item.rawValue, path, item.label, container: Item.section.rawValue, aliases: label)
    spec.section = Item.section.title
  }
}
