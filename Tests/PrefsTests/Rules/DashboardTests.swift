import DeckValues
import Foundation
import PrefsRules
import Testing

@Suite("Dashboard visibility")
struct DashboardTests {
  @Test("the spec's 8 stats cards with their grid labels")
  func statsCards() {
    #expect(
      StatsCard.allCases.map(\.rawValue) == [
        "coaches", "schools", "interactions", "offers", "events", "performance", "notifications", "socialMedia",
      ])
    #expect(
      StatsCard.allCases.map(\.label) == [
        "Coaches", "Schools", "Interactions", "Offers", "Events", "Performance", "Notifications", "Social Media",
      ])
  }

  @Test("the spec's 17 widgets with readable labels")
  func widgets() {
    #expect(
      DashboardWidget.allCases.map(\.rawValue) == [
        "recentNotifications", "linkedAccounts", "recruitingCalendar", "quickTasks", "atAGlanceSummary",
        "offerStatusOverview", "interactionTrendChart", "schoolInterestChart", "schoolMapWidget",
        "coachFollowupWidget", "eventsSummary", "performanceSummary", "recentDocuments", "interactionStats",
        "schoolStatusOverview", "coachResponsiveness", "upcomingDeadlines",
      ])
    #expect(DashboardWidget.atAGlanceSummary.label == "At a Glance Summary")
    #expect(Set(DashboardWidget.allCases.map(\.label)).count == 17)
  }

  @Test("everything is shown by default and encodes in the spec's nested shape")
  func defaults() throws {
    let object = try encodedObject(DashboardWidgetVisibility.defaults)
    #expect(Set(object.keys) == ["statsCards", "widgets"])
    #expect(
      object["statsCards"]
        == .object(JSONObject(StatsCard.allCases.map { ($0.rawValue, .bool(true)) })))
    #expect(
      object["widgets"]
        == .object(JSONObject(DashboardWidget.allCases.map { ($0.rawValue, .bool(true)) })))
  }

  @Test("hidden items round-trip; missing items read as shown")
  func roundTrip() throws {
    var dashboard = DashboardWidgetVisibility()
    dashboard.statsCards[.offers] = false
    dashboard.widgets[.schoolMapWidget] = false
    let decoded = try JSONDecoder().decode(DashboardWidgetVisibility.self, from: JSONEncoder().encode(dashboard))
    #expect(decoded == dashboard)
    let partial = try JSONDecoder().decode(
      DashboardWidgetVisibility.self, from: jsonData(#"{"statsCards": {"coaches": false}}"#))
    #expect(partial.statsCards.hidden == [.coaches])
    #expect(partial.widgets == .allShown)
  }

  @Test(
    "items are named by JSON key in any case, or in kebab-case",
    arguments: [
      ("socialMedia", "socialMedia"), ("social-media", "socialMedia"), ("SOCIALMEDIA", "socialMedia"),
      ("recent-notifications", "recentNotifications"), ("Recent Notifications", "recentNotifications"),
      ("at-a-glance-summary", "atAGlanceSummary"), ("coaches", "coaches"),
    ])
  func names(name: String, key: String) throws {
    let hidden = try DashboardWidgetVisibility().hiding([name])
    #expect(hidden.changes(to: DashboardWidgetVisibility()) == [FieldChange(field: key, old: "false", new: "true")])
    #expect(try hidden.showing([name]) == DashboardWidgetVisibility())
  }

  @Test("unknown names are refused together, each with the nearest valid names")
  func unknownNames() {
    #expect(
      refusal { () throws(Validation) in
        try DashboardWidgetVisibility().hiding(["socal-media", "quick-task", "coaches"])
      }
        == [
          "socal-media: unknown dashboard item; did you mean socialMedia?",
          "quick-task: unknown dashboard item; did you mean quickTasks?",
        ])
  }

  @Test("select all / deselect all work per section")
  func selectAll() {
    let none = DashboardWidgetVisibility().deselectingAll(in: .statsCards)
    #expect(none.statsCards.shown.isEmpty)
    #expect(none.widgets == .allShown)
    #expect(!none.isEverythingHidden)
    let nothing = none.deselectingAll(in: .widgets)
    #expect(nothing.isEverythingHidden)
    #expect(nothing.statsCards == .allHidden && nothing.widgets == .allHidden)
    let back = nothing.selectingAll(in: .widgets)
    #expect(back.widgets == .allShown)
    #expect(back.statsCards == .allHidden)
    #expect(!back.isEverythingHidden)
  }

  @Test("one shown item is enough for the dashboard not to be empty")
  func oneShown() {
    var dashboard = DashboardWidgetVisibility(statsCards: .allHidden, widgets: .allHidden)
    #expect(dashboard.isEverythingHidden)
    dashboard.widgets[.upcomingDeadlines] = true
    #expect(!dashboard.isEverythingHidden)
  }

  @Test("sections are named by key, kebab-case or title")
  func sections() throws {
    #expect(try DashboardSection.named("statsCards") == .statsCards)
    #expect(try DashboardSection.named("stats-cards") == .statsCards)
    #expect(try DashboardSection.named("Dashboard Widgets") == .widgets)
    #expect(
      refusal { () throws(Validation) in try DashboardSection.named("widget") } == [
        "widget: unknown dashboard section; did you mean widgets?"
      ])
  }

  @Test("key=value works on the dashboard too")
  func assignments() throws {
    let (value, changes) = try DashboardWidgetVisibility().applying(["social-media=off", "quickTasks=no"])
    #expect(!value.statsCards[.socialMedia])
    #expect(!value.widgets[.quickTasks])
    #expect(changes.map(\.field) == ["socialMedia", "quickTasks"])
  }
}

@Suite("Dashboard names as the grid shows them")
struct DashboardLabelTests {
  @Test(
    "a label that spells the item differently names it too",
    arguments: [
      ("School Map", "schoolMapWidget"), ("coach follow-up", "coachFollowupWidget"), ("Social Media", "socialMedia"),
    ])
  func labels(name: String, key: String) throws {
    #expect(try DashboardWidgetVisibility.field(named: name).spec.key == key)
  }
}

/// Issue 26: an empty section warns on its own, as the page shows an empty state per section.
@Suite("Dashboard empty states")
struct DashboardEmptyStateTests {
  @Test("every widget hidden, cards shown: one warning, naming the widgets' section")
  func widgetsOnly() {
    let dashboard = DashboardWidgetVisibility().deselectingAll(in: .widgets)
    #expect(dashboard.emptySections == [.widgets])
    #expect(!dashboard.isEverythingHidden)
    #expect(dashboard.emptyStateWarnings.count == 1)
    #expect(
      dashboard.emptyStateWarnings.first?.contains("the Dashboard Widgets section will show its empty state") == true)
    #expect(dashboard.emptyStateWarnings.first?.hasSuffix("deck prefs dashboard show --all widgets") == true)
  }

  @Test("every card hidden names the summary statistics; both hidden is one warning for the dashboard")
  func cardsAndBoth() {
    let cards = DashboardWidgetVisibility().deselectingAll(in: .statsCards)
    #expect(cards.emptySections == [.statsCards])
    #expect(cards.emptyStateWarnings.first?.contains("the Summary Statistics section") == true)
    let both = cards.deselectingAll(in: .widgets)
    #expect(
      both.emptyStateWarnings == [
        "every card and widget is hidden; the dashboard will show its empty state. Show some with: deck prefs dashboard show --all widgets"
      ])
    #expect(DashboardWidgetVisibility().emptyStateWarnings.isEmpty)
  }
}
