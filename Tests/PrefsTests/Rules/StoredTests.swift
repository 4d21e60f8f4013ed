import Foundation
import PrefsRules
import Testing

@Suite("Reading stored preferences")
struct StoredTests {
  @Test("nothing stored gives the defaults silently", arguments: PrefsCategory.allCases)
  func nothingStored(category: PrefsCategory) {
    let none = PrefsValue.decodeStored(category, nil)
    #expect(none.value == .defaults(for: category))
    #expect(none.warnings.isEmpty)
    let null = PrefsValue.decodeStored(category, jsonData("null"))
    #expect(null.value == .defaults(for: category))
    #expect(null.warnings.isEmpty)
  }

  @Test("a blob that is not JSON gives the defaults and says so")
  func notJSON() {
    let stored = NotificationSettings.decodeStored(jsonData("{followUpReminderDays: 7"))
    #expect(stored.value == .defaults)
    #expect(stored.warnings == ["stored notifications are not valid JSON; showing the defaults"])
  }

  @Test(
    "a blob that is not an object gives the defaults",
    arguments: [("[1, 2]", "a list"), ("\"text\"", "text"), ("42", "a number"), ("true", "true or false")])
  func notAnObject(text: String, found: String) {
    let stored = PlayerDetails.decodeStored(jsonData(text))
    #expect(stored.value == .defaults)
    #expect(stored.warnings == ["stored player details are not a JSON object (found \(found)); showing the defaults"])
  }

  @Test("wrongly typed fields are all named")
  func wrongTypes() {
    let stored = PlayerDetails.decodeStored(
      jsonData(#"{"gpa": "high", "satScore": 1200.5, "positions": ["SS", 2], "bats": "R"}"#))
    #expect(stored.value == .defaults)
    #expect(
      stored.warnings == [
        #"stored player details are invalid (positions: ["SS", 2] is not a list of text; allowed a position of the primary sport, e.g. Shortstop (SS) for Baseball; gpa: "high" is not a number; allowed 0.0–5.0; satScore: 1200.5 is not a whole number; allowed 400–1600); showing the defaults"#
      ])
  }

  @Test("a value failing validation gives the defaults, with the brief's message")
  func invalid() {
    let stored = NotificationSettings.decodeStored(
      jsonData(#"{"followUpReminderDays": 500, "enableDailyDigest": false}"#))
    #expect(stored.value == .defaults)
    #expect(
      stored.warnings == [
        "stored notifications are invalid (followUpReminderDays: 500 is out of range; allowed 1–90); showing the defaults"
      ])
  }

  @Test("unknown keys are ignored, missing keys take the defaults, and values are normalised")
  func lenient() {
    let stored = NotificationSettings.decodeStored(
      jsonData(#"{"enableDailyDigest": false, "colour": "blue", "quietHoursStart": "7:30"}"#))
    #expect(stored.warnings.isEmpty)
    #expect(stored.value == NotificationSettings(enableDailyDigest: false, quietHoursStart: "07:30"))
    let location = HomeLocation.decodeStored(jsonData(#"{"state": "ma", "zip": null, "extra": {"a": 1}}"#))
    #expect(location.warnings.isEmpty)
    #expect(location.value == HomeLocation(state: "MA"))
  }

  @Test("corrupted dashboard sections and school lists are named")
  func nested() {
    let dashboard = DashboardWidgetVisibility.decodeStored(
      jsonData(#"{"statsCards": [true], "widgets": {"quickTasks": "no"}}"#))
    #expect(dashboard.value == .defaults)
    #expect(
      dashboard.warnings == [
        #"stored dashboard settings are invalid (statsCards: [true] is not a JSON object; use {"name": true, …}; quickTasks: "no" is not true or false); showing the defaults"#
      ])
    let school = SchoolPreferences.decodeStored(
      jsonData(
        #"{"preferences": [{"id": "a", "type": "warp_speed", "value": 9, "priority": 1}, 7], "templateUsed": 3}"#))
    #expect(school.value == .defaults)
    #expect(
      school.warnings == [
        #"stored school preferences are invalid (preference 1 type: "warp_speed" is not allowed; use max_distance_miles, preferred_regions, preferred_states, min_academic_rating, school_size, division, conference_type, scholarship_required, must_have or nice_to_have; preference 2: 7 is not a JSON object; use {"id": …, "category": …, "type": …, "value": …, "priority": …, "isDealbreaker": …}; templateUsed: 3 is not text); showing the defaults"#
      ])
  }

  @Test("a valid school list is read, with missing category and isDealbreaker filled in")
  func school() {
    let stored = SchoolPreferences.decodeStored(
      jsonData(
        #"{"preferences": [{"id": "a", "type": "division", "value": ["d1"], "priority": 1}], "templateUsed": "Custom"}"#
      ))
    #expect(stored.warnings.isEmpty)
    #expect(
      stored.value
        == SchoolPreferences(
          preferences: [SchoolPreference(id: "a", type: .division, value: .strings(["D1"]), priority: 1)],
          templateUsed: "Custom"))
  }

  @Test("a school list with missing required parts names them")
  func schoolMissing() {
    let stored = SchoolPreferences.decodeStored(
      jsonData(#"{"preferences": [{"type": "school_size", "category": "program"}]}"#))
    #expect(
      stored.warnings == [
        "stored school preferences are invalid (preference 1 id: missing; use a unique id; preference 1 priority: missing; use a whole number from 1; preference 1 school_size: missing; use small, medium, large or very_large); showing the defaults"
      ])
  }

  @Test("the tagged form carries the category")
  func tagged() {
    let (value, warnings) = PrefsValue.decodeStored(.location, jsonData(#"{"city": " Boston "}"#))
    #expect(warnings.isEmpty)
    #expect(value == .location(HomeLocation(city: "Boston")))
    #expect(value.category == .location)
  }
}
