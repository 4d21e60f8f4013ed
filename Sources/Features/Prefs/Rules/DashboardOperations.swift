/// The dashboard page's actions: toggling items by name, Select All / Deselect All per section, and
/// the empty-dashboard check.
extension DashboardWidgetVisibility {
  /// The items named shown. Names are JSON keys in any case or kebab-case (`social-media`); unknown
  /// names are refused together, each with the nearest valid names.
  public func showing(_ names: [String]) throws(Validation) -> Self { try setting(names, shown: true) }

  /// The items named hidden; names as for `showing`.
  public func hiding(_ names: [String]) throws(Validation) -> Self { try setting(names, shown: false) }

  /// Every item of `section` shown (Select All).
  public func selectingAll(in section: DashboardSection) -> Self { setting(section, shown: true) }

  /// Every item of `section` hidden (Deselect All).
  public func deselectingAll(in section: DashboardSection) -> Self { setting(section, shown: false) }

  /// Whether nothing at all is shown: the dashboard then shows its empty state.
  public var isEverythingHidden: Bool { statsCards.shown.isEmpty && widgets.shown.isEmpty }

  /// The sections with nothing shown, in page order: the page shows an empty state for each
  /// ("Dashboard with all widgets disabled: Dashboard shows empty state message").
  public var emptySections: [DashboardSection] {
    DashboardSection.allCases.filter { section in
      switch section {
      case .statsCards: statsCards.shown.isEmpty
      case .widgets: widgets.shown.isEmpty
      }
    }
  }

  /// The warning for each section with nothing shown, naming the section and how to show it
  /// again; one sentence for the whole dashboard when both are empty.
  public var emptyStateWarnings: [String] {
    let empty = emptySections
    if empty.count == DashboardSection.allCases.count {
      return [
        "every card and widget is hidden; the dashboard will show its empty state. Show some with: deck prefs dashboard show --all widgets"
      ]
    }
    return empty.map { section in
      let items = section == .statsCards ? "summary statistics card" : "widget"
      return
        "every \(items) is hidden; the \(section.title) section will show its empty state. Show some with: deck prefs dashboard show --all \(section.rawValue)"
    }
  }

  private func setting(_ names: [String], shown: Bool) throws(Validation) -> Self {
    var copy = self
    var issues: [ValidationIssue] = []
    for name in names {
      do { try Self.field(named: name).write(&copy, .bool(shown)) } catch { issues += error.issues }
    }
    try Validation(issues).check()
    return copy
  }

  private func setting(_ section: DashboardSection, shown: Bool) -> Self {
    var copy = self
    switch section {
    case .statsCards: copy.statsCards = shown ? .allShown : .allHidden
    case .widgets: copy.widgets = shown ? .allShown : .allHidden
    }
    return copy
  }
}
