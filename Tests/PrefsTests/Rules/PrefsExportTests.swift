import DeckValues
import Foundation
import PrefsRules
import Testing

@Suite("Export documents")
struct ExportTests {
  static let school = SchoolPreferences().applying(.closeToHome, newID: { "p1" })

  @Test("a document round-trips in the {version, categories} shape")
  func roundTrip() throws {
    var player = PlayerDetails()
    player.gpa = 3.9
    let document = PrefsExport([.player(player), .school(Self.school)])
    let object = try encodedObject(document)
    #expect(object["version"] == .int(1))
    guard case .object(let categories) = object["categories"] else {
      Issue.record("categories is not an object")
      return
    }
    #expect(Set(categories.keys) == ["player", "school"])
    #expect(categories["player"] == .object(["gpa": .double(3.9)]))
    let data = try JSONEncoder().encode(document)
    #expect(try PrefsExport.parse(data) == document)
    #expect(try JSONDecoder().decode(PrefsExport.self, from: data) == document)
    #expect(document.values.map(\.category) == [.player, .school])
  }

  @Test("validateAll lists only the invalid categories")
  func validateAll() {
    var player = PlayerDetails()
    player.satScore = 1700
    let document = PrefsExport([
      .player(player), .notifications(NotificationSettings(followUpReminderDays: 0)), .location(HomeLocation()),
    ])
    #expect(
      document.validateAll() == [
        .player: Validation([document.validateAll()[.player]?.issues.first].compactMap { $0 }),
        .notifications: NotificationSettings(followUpReminderDays: 0).validate(),
      ])
    #expect(document.validateAll()[.player]?.messages == ["satScore: 1700 is out of range; allowed 400–1600"])
    #expect(PrefsExport([.location(HomeLocation())]).validateAll().isEmpty)
  }

  @Test("parse refuses the whole file, naming every problem of every category")
  func parseRefuses() {
    let text = #"""
      {"version": 1, "categories": {
        "player": {"gpa": 5.5, "bats": "x"},
        "dashboard": {"widgets": {"quickTasks": "yes"}},
        "location": {"state": "ca"}
      }}
      """#
    do {
      _ = try PrefsExport.parse(jsonData(text))
      Issue.record("accepted an invalid file")
    } catch {
      #expect(
        error.messages == [
          #"player: bats: "x" is not allowed; use L, R or S"#,
          "player: gpa: 5.5 is out of range; allowed 0.0–5.0",
          #"dashboard: quickTasks: "yes" is not true or false"#,
        ])
      #expect(error.categories[.location] == nil)
    }
  }

  @Test("parse normalises what it accepts")
  func parseNormalises() throws {
    let document = try PrefsExport.parse(jsonData(#"{"version": 1, "categories": {"location": {"state": "ca"}}}"#))
    #expect(document.categories[.location] == .location(HomeLocation(state: "CA")))
  }

  @Test(
    "document problems: not JSON, wrong shape or version, unknown categories",
    arguments: [
      ("{", [#"document: is not valid JSON; use {"version": 1, "categories": {"player": {…}, …}}"#]),
      ("[]", [#"document: [] is not a JSON object; use {"version": 1, "categories": {"player": {…}, …}}"#]),
      (#"{"categories": {}}"#, ["version: missing; use 1"]),
      (#"{"version": 2, "categories": {}}"#, ["version: 2 is not allowed; use 1"]),
      (#"{"version": "1", "categories": {}}"#, [#"version: "1" is not allowed; use 1"#]),
      (
        #"{"version": 1}"#,
        [#"categories: missing; use an object of categories, e.g. {"version": 1, "categories": {"player": {…}, …}}"#]
      ),
      (#"{"version": 1, "categories": {"players": {}}}"#, ["players: unknown category; did you mean player?"]),
    ])
  func documentProblems(text: String, messages: [String]) {
    do {
      _ = try PrefsExport.parse(jsonData(text))
      Issue.record("accepted \(text)")
    } catch {
      #expect(error.messages == messages)
    }
  }

  @Test("an empty set of categories is a valid (empty) export")
  func empty() throws {
    #expect(try PrefsExport.parse(jsonData(#"{"version": 1, "categories": {}}"#)).categories.isEmpty)
  }
}
