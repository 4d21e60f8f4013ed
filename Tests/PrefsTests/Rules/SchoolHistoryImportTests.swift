import Foundation
import PrefsRules
import Testing

/// Issue 26, item 10: school import agrees with edit about new rows, and one move is one
/// history entry.
@Suite("School import and history")
struct SchoolHistoryImportTests {
  /// A list of `count` preferences, ids `p1`…, alternately must-have and nice-to-have.
  static func list(_ count: Int) throws -> SchoolPreferences {
    var school = SchoolPreferences()
    for index in 1...count {
      school = try school.adding(
        SchoolCriterion(index.isMultiple(of: 2) ? .niceToHave : .mustHave, .string("Item \(index)")), id: "p\(index)")
    }
    return school
  }

  @Test("one move of 300 is one change, naming the moved preference's old and new place")
  func moveIsOneChange() throws {
    let school = try Self.list(300)
    let moved = try school.moving(fromPriority: 300, toPriority: 1)
    #expect(school.changes(to: moved) == [FieldChange(field: "nice_to_have", old: "300. Item 300", new: "1. Item 300")])
    let down = try school.moving(fromPriority: 1, toPriority: 300)
    #expect(school.changes(to: down) == [FieldChange(field: "must_have", old: "1. Item 1", new: "300. Item 1")])
  }

  @Test("removing the first of 300 is one change; the renumbered rest are none")
  func removeIsOneChange() throws {
    let school = try Self.list(300)
    #expect(
      school.changes(to: try school.removing(priority: 1)) == [
        FieldChange(field: "must_have", old: "1. Item 1", new: nil)
      ])
  }

  @Test("a move that also changes a badge reports the badge on the moved one only")
  func moveAndBadge() throws {
    let school = try Self.list(5)
    let changed = try school.moving(fromPriority: 2, toPriority: 4).settingDealbreaker(true, priority: 1)
    #expect(
      school.changes(to: changed) == [
        FieldChange(field: "must_have", old: "1. Item 1", new: "1. Item 1 (dealbreaker)"),
        FieldChange(field: "nice_to_have", old: "2. Item 2", new: "4. Item 2"),
      ])
  }

  @Test("import: a new school row needs neither id nor priority, as in edit")
  func importNewRows() throws {
    let text = #"""
      {"version": 1, "categories": {"school": {"preferences": [
        {"id": "kept", "type": "division", "value": ["D1"], "priority": 1},
        {"type": "max_distance_miles", "value": 300},
        {"type": "must_have", "value": "Nursing", "isDealbreaker": true}
      ]}}}
      """#
    let counter = IDCounter()
    let document = try PrefsExport.parse(jsonData(text), newID: counter.make)
    guard case .school(let school)? = document.categories[.school] else {
      Issue.record("no school")
      return
    }
    #expect(school.ordered.map(\.id) == ["kept", "id1", "id2"])
    #expect(school.ordered.map(\.priority) == [1, 2, 3])
    #expect(school.ordered.map(\.type) == [.division, .maxDistanceMiles, .mustHave])
  }

  @Test("import: a failed school list lists its first 20 problems, then how many more")
  func importErrorsCapped() {
    let rows = (1...300).map { _ in #"{"type": "max_distance_miles", "value": 1}"# }
    let text = #"{"version": 1, "categories": {"school": {"preferences": [\#(rows.joined(separator: ","))]}}}"#
    do {
      _ = try PrefsExport.parse(jsonData(text))
      Issue.record("accepted")
    } catch {
      #expect(error.messages.count == 300, "every problem is found")
      #expect(error.listed.count == 21)
      #expect(error.listed.last == "and 280 more")
    }
  }
}
