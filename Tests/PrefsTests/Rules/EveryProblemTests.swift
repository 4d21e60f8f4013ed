import DeckValues
import Foundation
import PrefsRules
import Testing

/// Issue 26, item 7: every problem of the input at once, in set, edit, import and the
/// corrupted-data warning; long lists capped at the first 20, then "and N more".
@Suite("Every problem at once")
struct EveryProblemTests {
  @Test("set names a value that does not read and a value out of range in one answer")
  func setNamesEveryProblem() {
    let messages = refusal(
      NotificationSettings(), ["followUpReminderDays=999", "enableDeadlineAlerts=maybe"])
    #expect(messages.contains("followUpReminderDays: 999 is out of range; allowed 1–90"))
    #expect(messages.contains(#"enableDeadlineAlerts: "maybe" is not true or false"#))
    #expect(messages.count == 2)
  }

  @Test("an unknown key does not hide a range problem")
  func unknownKeyAndRange() {
    let messages = refusal(PlayerDetails(), ["gpaa=3", "satScore=300"])
    #expect(messages.contains("gpaa: unknown player field; did you mean gpa?"))
    #expect(messages.contains("satScore: 300 is out of range; allowed 400–1600"))
  }

  @Test("the corrupted-data warning names every problem, types and ranges")
  func storedWarningNamesEveryProblem() {
    let stored = NotificationSettings.decodeStored(
      jsonData(#"{"followUpReminderDays": 500, "enableDailyDigest": "x", "quietHoursStart": "25:00"}"#))
    #expect(stored.value == NotificationSettings())
    let warning = stored.warnings.first ?? ""
    #expect(warning.contains(#"enableDailyDigest: "x" is not true or false"#))
    #expect(warning.contains("followUpReminderDays: 500 is out of range; allowed 1–90"))
    #expect(warning.contains(#"quietHoursStart: "25:00" is not a time of day"#))
  }

  @Test("a long list shows the first 20, then how many more")
  func capped() {
    let issues = (1...45).map {
      ValidationIssue(field: "f\($0)", value: "", allowed: "", message: "problem \($0)")
    }
    let listed = Validation(issues).listed()
    #expect(listed.count == 21)
    #expect(listed.first == "problem 1")
    #expect(listed[19] == "problem 20")
    #expect(listed.last == "and 25 more")
    #expect(Validation(Array(issues.prefix(20))).listed().count == 20, "20 problems are all shown")
    #expect(Validation(issues).cappedSummary.hasSuffix("problem 20; and 25 more"))
  }

  @Test("a stored document with many problems is capped in its warning")
  func storedWarningIsCapped() {
    let items = (1...30).map { #"{"id": "p\#($0)", "type": "max_distance_miles", "value": 1, "priority": \#($0)}"# }
    let stored = SchoolPreferences.decodeStored(jsonData(#"{"preferences": [\#(items.joined(separator: ","))]}"#))
    let warning = stored.warnings.first ?? ""
    #expect(warning.contains("preference 20 max_distance_miles: 1 is out of range"))
    #expect(!warning.contains("preference 21 "))
    #expect(warning.contains("and 10 more"))
  }

  @Test("a school list with a preference that does not read still checks the others, at their places")
  func schoolReadsTheRest() {
    let json = JSONValue.parse(
      jsonData(
        #"""
        {"preferences": [
          {"id": "a", "type": "division", "value": ["D9"], "priority": 1},
          {"id": "b", "type": "nonsense", "value": 1, "priority": 2},
          {"id": "c", "type": "max_distance_miles", "value": 10, "priority": 3}
        ]}
        """#))
    let (_, issues) = SchoolPreferences.readAll(json ?? .null)
    let messages = issues.map(\.message)
    #expect(messages.contains { $0.hasPrefix("preference 2 type:") })
    #expect(messages.contains(#"preference 1 division: "D9" is not allowed; use D1, D2, D3, NAIA or JUCO"#))
    #expect(messages.contains("preference 3 max_distance_miles: 10 is out of range; allowed 50–3000"))
    #expect(!messages.contains { $0.hasPrefix("priorities") }, "no complaint about the list being incomplete")
  }

  @Test("import names the values of a category whose other fields do not read")
  func importNamesEveryProblem() {
    let text = #"""
      {"version": 1, "categories": {"notifications": {"followUpReminderDays": 999, "enableDeadlineAlerts": "maybe"}}}
      """#
    do {
      _ = try PrefsExport.parse(jsonData(text))
      Issue.record("accepted an invalid file")
    } catch {
      #expect(error.messages.contains("notifications: followUpReminderDays: 999 is out of range; allowed 1–90"))
      #expect(error.messages.contains(#"notifications: enableDeadlineAlerts: "maybe" is not true or false"#))
    }
  }
}
