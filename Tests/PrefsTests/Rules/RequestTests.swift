import DeckValues
import Foundation
import PrefsRules
import Testing

/// What the recruiting API (the sandbox) accepts: complete bodies checked key by key, merge
/// patches, history entries; the same rules as the client's, without normalising.
@Suite("API requests")
struct RequestTests {
  func parse(_ text: String) throws -> JSONValue { try #require(JSONValue.parse(jsonData(text))) }

  func messages(_ request: PrefsRequest) -> [String] {
    switch request {
    case .valid: []
    case .invalid(let validation), .conflict(let validation): validation.messages
    }
  }

  @Test("a complete body is stored exactly as sent")
  func validBody() throws {
    let body = try encodedJSON(NotificationSettings(followUpReminderDays: 14, quietHoursStart: "22:00"))
    #expect(
      PrefsRequest.read(body, as: .notifications)
        == .valid(.notifications(NotificationSettings(followUpReminderDays: 14, quietHoursStart: "22:00"))))
    let dashboard = try encodedJSON(DashboardWidgetVisibility().hiding(["quickTasks"]))
    #expect(
      PrefsRequest.read(dashboard, as: .dashboard)
        == .valid(.dashboard(try DashboardWidgetVisibility().hiding(["quickTasks"]))))
    #expect(
      PrefsRequest.read(.object([:]), as: .player) == .valid(.player(PlayerDetails())), "every player field is optional"
    )
  }

  @Test("unknown keys are named with the nearest known ones, at any depth")
  func unknownKeys() throws {
    #expect(
      messages(PrefsRequest.read(try parse(#"{"gpaa": 3}"#), as: .player)) == [
        "gpaa: unknown player field; did you mean gpa?"
      ])
    var dashboard = try encodedObject(DashboardWidgetVisibility())
    guard case .object(var widgets)? = dashboard["widgets"] else {
      Issue.record("no widgets")
      return
    }
    widgets["quickTask"] = .bool(true)
    dashboard["widgets"] = .object(widgets)
    #expect(
      messages(PrefsRequest.read(.object(dashboard), as: .dashboard)) == [
        "widgets.quickTask: unknown dashboard item; did you mean quickTasks?"
      ])
    let school = try parse(
      #"{"preferences": [{"id": "a", "category": "location", "type": "max_distance_miles", "value": 300, "priority": 1, "isDealbreaker": false, "note": "x"}]}"#
    )
    #expect(
      messages(PrefsRequest.read(school, as: .school)).first?.hasPrefix(
        "preference 1.note: unknown school preference field")
        == true)
  }

  @Test("keys the model always has must be there, and not null")
  func missingKeys() throws {
    var notifications = try encodedObject(NotificationSettings())
    notifications["enableDailyDigest"] = nil
    notifications["emailOnlyHighPriority"] = .null
    #expect(
      messages(PrefsRequest.read(.object(notifications), as: .notifications)) == [
        "enableDailyDigest: missing; use true or false",
        "emailOnlyHighPriority: null is not true or false",
      ])
    #expect(
      messages(PrefsRequest.read(try parse(#"{"statsCards": {}}"#), as: .dashboard)).prefix(2) == [
        #"widgets: missing; use {"name": true, …}"#, "statsCards.coaches: missing; use true or false",
      ])
    #expect(
      messages(PrefsRequest.read(try parse("{}"), as: .school)) == ["preferences: missing; use a list of preferences"])
    let bare = try parse(#"{"preferences": [{"id": "a", "type": "division", "value": ["D1"], "priority": 1}]}"#)
    #expect(
      messages(PrefsRequest.read(bare, as: .school)) == [
        "preference 1 category: missing; use location, academic, program or custom",
        "preference 1 isDealbreaker: missing; use true or false",
      ])
  }

  @Test("values are validated as sent: the server does not normalise")
  func noNormalising() throws {
    #expect(
      messages(PrefsRequest.read(try parse(#"{"state": "ca"}"#), as: .location)) == [
        #"state: "ca" is not a US state code; use a 2-letter US state or DC code, e.g. CA"#
      ])
    #expect(
      messages(PrefsRequest.read(try parse(#"{"bats": "l"}"#), as: .player)) == [
        #"bats: "l" is not allowed; use L, R or S"#
      ])
    #expect(
      messages(PrefsRequest.read(try parse(#"{"state": "A\u212A"}"#), as: .location)).count == 1,
      "a Kelvin sign is not K")
  }

  @Test("school priorities are renumbered in priority order; repeated ids are a conflict")
  func schoolList() throws {
    let body = try parse(
      #"""
      {"preferences": [
        {"id": "a", "category": "location", "type": "max_distance_miles", "value": 300, "priority": 7, "isDealbreaker": false},
        {"id": "b", "category": "program", "type": "division", "value": ["D1"], "priority": 2, "isDealbreaker": true}
      ]}
      """#)
    guard case .valid(.school(let school)) = PrefsRequest.read(body, as: .school) else {
      Issue.record("refused a valid list")
      return
    }
    #expect(school.preferences.map(\.id) == ["b", "a"])
    #expect(school.preferences.map(\.priority) == [1, 2])

    let twice = try parse(
      #"""
      {"preferences": [
        {"id": "a", "category": "custom", "type": "must_have", "value": "x", "priority": 1, "isDealbreaker": false},
        {"id": "a", "category": "custom", "type": "nice_to_have", "value": "y", "priority": 2, "isDealbreaker": false}
      ]}
      """#)
    #expect(
      PrefsRequest.read(twice, as: .school)
        == .conflict(
          Validation([
            ValidationIssue(
              field: "preference 2 id", value: "\"a\"", allowed: "a unique id",
              message: #"preference 2 id: "a" is also the id of preference 1; use a unique id"#)
          ])))
    let high = try parse(
      #"{"preferences": [{"id": "a", "category": "custom", "type": "must_have", "value": "x", "priority": 1001, "isDealbreaker": false}]}"#
    )
    #expect(
      messages(PrefsRequest.read(high, as: .school)) == ["preference 1 priority: 1001 is out of range; allowed 1–1000"])
  }

  @Test("a merge patch sets, clears and keeps; and mergePatch(to:) makes the one that gets there")
  func mergePatch() throws {
    var player = PlayerDetails()
    player.gpa = 3.5
    player.bats = "L"
    let patched = try player.patched(with: try parse(#"{"gpa": null, "satScore": 1400}"#))
    #expect(patched.gpa == nil)
    #expect(patched.satScore == 1400)
    #expect(patched.bats == "L")
    let unknown = try parse(#"{"sat": 1400}"#)
    let high = try parse(#"{"satScore": 1700}"#)
    #expect(
      refusal { () throws(Validation) in try player.patched(with: unknown) } == [
        "sat: unknown player field; did you mean satScore or bats?"
      ])
    #expect(
      refusal { () throws(Validation) in try player.patched(with: high) } == [
        "satScore: 1700 is out of range; allowed 400–1600"
      ])
    #expect(
      refusal { () throws(Validation) in try player.patched(with: .array([])) } == [
        "player: [] is not a JSON object; use {\"key\": value, …}"
      ])

    var target = player
    target.gpa = nil
    target.positions = ["SS", "2B"]
    let patch = player.mergePatch(to: target)
    #expect(patch == .object(["gpa": .null, "positions": .array([.string("SS"), .string("2B")])]))
    #expect(try player.patched(with: patch) == target)
  }

  @Test("history entries are cut to what an entry holds, and checked")
  func history() {
    let long = String(repeating: "é", count: 2500)
    let cut = FieldChange(field: "positions", old: long, new: nil).truncatedForHistory()
    #expect(cut.old?.unicodeScalars.count == 2000)
    #expect(cut.old?.hasSuffix("…") == true)
    #expect(cut.historyIssues(position: 1).isEmpty)
    #expect(
      FieldChange(field: " \u{3000}", old: nil, new: "x").historyIssues(position: 2).map(\.message) == [
        #"changes 2 field: " \u3000" is blank; use the name of the field that changed"#.replacingOccurrences(
          of: "\\u3000", with: "\u{3000}")
      ])
    #expect(FieldChange(field: "gpa", old: long, new: nil).historyIssues(position: 1).map(\.field) == ["changes 1 old"])
  }

  @Test("import files name unknown keys too (a misspelt key is not dropped)")
  func importUnknownKeys() {
    do {
      _ = try PrefsExport.parse(
        jsonData(#"{"version": 1, "categories": {"location": {"zipcode": "02139"}}, "extra": 1}"#))
      Issue.record("accepted an unknown key")
    } catch {
      #expect(
        error.messages == [
          "extra: unknown document key; did you mean version or categories?",
          "location: zipcode: unknown location field; did you mean zip?",
        ])
    }
  }
}

@Suite("Text formats the contract's patterns describe")
struct TextFormatTests {
  @Test(
    "web addresses: http(s), a host of ASCII labels, an optional port, URL characters",
    arguments: [
      ("HTTPS://Facebook.com/jane", true), ("http://fb.com:8080/x?id=1#top", true), ("https://a", true),
      ("https://fb.com/jos%C3%A9", true), ("https://fb.com/josé", false), ("https://fb..com", false),
      ("https://fb.com:123456", false), ("https://fb.com:", false), ("https://fb.com/a b", false),
      ("https://user@fb.com", false), ("http:/fb.com", false),
    ])
  func webURL(value: String, valid: Bool) {
    #expect(refusal(PlayerDetails(), ["facebookUrl=\(value)"]).isEmpty == valid, "\(value)")
  }

  @Test("text length is counted in code points, as JSON Schema's maxLength counts")
  func codePoints() {
    let combining = String(repeating: "e\u{301}", count: 150)  // 150 characters, 300 code points
    let refused = refusal(PlayerDetails(), ["highSchool=\(combining)"])
    #expect(refused.count == 1)
    #expect(refused.first?.hasSuffix("is too long (300 characters); use text of up to 200 characters") == true)
    #expect(refusal(PlayerDetails(), ["highSchool=\(String(repeating: "é", count: 200))"]).isEmpty)
  }

  @Test(
    "email: white space anywhere in the local part is refused, whatever the script",
    arguments: ["a\u{85}b@x.com", "a\u{A0}b@x.com", "a\u{2028}@x.com", "a\tb@x.com"])
  func emailWhiteSpace(value: String) {
    #expect(!refusal(PlayerDetails(), ["email=\(value)"]).isEmpty)
  }
}
