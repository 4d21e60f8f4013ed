import DeckValues
import PrefsRules
import Testing

@Suite("Field catalog")
struct CatalogTests {
  @Test("categories: API path segments and titles")
  func categories() {
    #expect(PrefsCategory.allCases.map(\.rawValue) == ["player", "school", "notifications", "dashboard", "location"])
    #expect(
      PrefsCategory.allCases.map(\.title) == [
        "Player Details", "School Preferences", "Notifications", "Dashboard", "Home Location",
      ])
    #expect(PrefsCategory.allCases.filter(\.acceptsAssignments) == [.player, .notifications, .dashboard, .location])
  }

  @Test("categories are found by any spelling, unknown ones suggest the nearest")
  func categoryNames() throws {
    #expect(try PrefsCategory.named("Player Details") == .player)
    #expect(try PrefsCategory.named("NOTIFICATIONS") == .notifications)
    #expect(
      refusal { () throws(Validation) in try PrefsCategory.named("locaton") } == [
        "locaton: unknown category; did you mean location?"
      ])
  }

  @Test("sections in form order")
  func sections() {
    #expect(
      PrefsCategory.player.sections == [
        "Basic Information", "Athletic Profile", "Physical Profile", "Academics", "External Profiles", "Social Media",
        "Contact Info", "Current High School", "High School Teams", "Travel Team",
      ])
    #expect(PrefsCategory.notifications.sections == ["In-App Notifications", "Email Notifications", "Quiet Hours"])
    #expect(PrefsCategory.dashboard.sections == ["Summary Statistics", "Dashboard Widgets"])
    #expect(PrefsCategory.location.sections == ["Address", "Coordinates"])
    #expect(PrefsCategory.school.sections == ["Location", "Academic", "Program", "Custom"])
  }

  @Test("field counts, and keys and aliases are unique per category", arguments: PrefsCategory.allCases)
  func unique(category: PrefsCategory) {
    let counts: [PrefsCategory: Int] = [.player: 39, .school: 10, .notifications: 9, .dashboard: 25, .location: 6]
    #expect(category.fields.count == counts[category])
    let names = category.fields.flatMap { [$0.key] + $0.aliases }.map { $0.lowercased() }
    #expect(Set(names).count == names.count)
  }

  @Test("every field is found by its own key", arguments: PrefsCategory.allCases)
  func resolvesOwnKeys(category: PrefsCategory) throws {
    for field in category.fields { #expect(try category.field(named: field.key) == field) }
  }

  @Test("JSON types, labels, sections and allowed values of sample fields")
  func sampleFields() throws {
    let gpa = try PrefsCategory.player.field(named: "gpa")
    #expect(gpa.kind.jsonType == "number")
    #expect(gpa.label == "GPA")
    #expect(gpa.section == "Academics")
    #expect(gpa.allowed == "0.0–5.0")
    #expect(gpa.isOptional)
    let positions = try PrefsCategory.player.field(named: "positions")
    #expect(positions.kind.jsonType == "array of strings")
    let bats = try PrefsCategory.player.field(named: "bats")
    #expect(bats.completions == ["L", "R", "S"])
    let state = try PrefsCategory.player.field(named: "schoolState")
    #expect(state.completions.count == 51)
    #expect(state.completions.contains("DC"))
    let days = try PrefsCategory.notifications.field(named: "followUpReminderDays")
    #expect(days.kind.jsonType == "integer")
    #expect(!days.isOptional)
    #expect(days.label == "Days between follow-ups")
    let digest = try PrefsCategory.notifications.field(named: "enableDailyDigest")
    #expect(digest.completions == ["true", "false"])
    #expect(digest.kind.jsonType == "boolean")
    let coaches = try PrefsCategory.dashboard.field(named: "coaches")
    #expect(coaches.container == "statsCards")
    #expect(coaches.section == "Summary Statistics")
    let division = try PrefsCategory.school.field(named: "division")
    #expect(division.completions == ["D1", "D2", "D3", "NAIA", "JUCO"])
    #expect(division.section == "Program")
  }

  @Test("the JSON keys of full values are exactly the catalog keys")
  func keysMatchJSON() throws {
    let notifications = NotificationSettings(quietHoursStart: "22:00", quietHoursEnd: "07:00")
    #expect(Set(try encodedObject(notifications).keys) == Set(NotificationSettings.specs.map(\.key)))
    guard case .object(let cards) = try encodedObject(DashboardWidgetVisibility())["statsCards"],
      case .object(let widgets) = try encodedObject(DashboardWidgetVisibility())["widgets"]
    else {
      Issue.record("dashboard sections are not objects")
      return
    }
    #expect(Set(cards.keys).union(widgets.keys) == Set(DashboardWidgetVisibility.specs.map(\.key)))
  }
}
