import PrefsRules
import Testing

@Suite("School templates and list operations")
struct SchoolOperationTests {
  @Test(
    "each template exactly as the spec's table",
    arguments: [
      (
        SchoolTemplate.d1PowerConference, "d1-power-conference", "D1 Power Conference",
        [
          SchoolCriterion(.division, .strings(["D1"])), SchoolCriterion(.conferenceType, .strings(["Power 4"])),
          SchoolCriterion(.scholarshipRequired, .bool(true)),
        ]
      ),
      (
        .academicExcellence, "academic-excellence", "Academic Excellence",
        [
          SchoolCriterion(.minAcademicRating, .int(4)), SchoolCriterion(.schoolSize, .string("medium")),
          SchoolCriterion(.division, .strings(["D1", "D3"])),
        ]
      ),
      (.closeToHome, "close-to-home", "Close to Home", [SchoolCriterion(.maxDistanceMiles, .int(300))]),
      (
        .bestFit, "best-fit", "Best Fit (Balanced)",
        [
          SchoolCriterion(.maxDistanceMiles, .int(500)), SchoolCriterion(.minAcademicRating, .int(3)),
          SchoolCriterion(.division, .strings(["D1", "D2", "D3"])),
        ]
      ),
    ])
  func template(template: SchoolTemplate, slug: String, name: String, criteria: [SchoolCriterion]) throws {
    #expect(template.slug == slug)
    #expect(template.name == name)
    #expect(try SchoolTemplate.named(slug) == template)
    #expect(try SchoolTemplate.named(name.uppercased()) == template)
    let ids = IDCounter()
    let existing = SchoolPreferences(
      preferences: [
        SchoolPreference(id: "old", type: .mustHave, value: .string("Nursing"), priority: 1, isDealbreaker: true)
      ],
      templateUsed: nil, lastUpdated: "2026-02-08T10:00:00Z")
    let applied = existing.applying(template, newID: ids.make)
    #expect(
      applied.preferences
        == criteria.enumerated().map { offset, criterion in
          SchoolPreference(id: "id\(offset + 1)", type: criterion.type, value: criterion.value, priority: offset + 1)
        })
    #expect(applied.preferences.allSatisfy { !$0.isDealbreaker && $0.category == $0.type.category })
    #expect(applied.templateUsed == name)
    #expect(applied.lastUpdated == "2026-02-08T10:00:00Z")
    #expect(applied.validate() == .valid)
  }

  @Test("templates are listed in the table's order")
  func templateOrder() {
    #expect(
      SchoolTemplate.allCases.map(\.slug) == [
        "d1-power-conference", "academic-excellence", "close-to-home", "best-fit",
      ])
    #expect(
      refusal { () throws(Validation) in try SchoolTemplate.named("close-to-hom") } == [
        "close-to-hom: unknown template; did you mean close-to-home?"
      ])
  }

  static func three() -> SchoolPreferences {
    SchoolPreferences().applying(.bestFit, newID: IDCounter().make)
  }

  @Test("add appends at priority n+1, parsing the value for the type")
  func add() throws {
    let list = try Self.three().adding(
      type: "preferred-regions", value: "midwest, Northeast", isDealbreaker: true, id: "new")
    #expect(list.preferences.map(\.priority) == [1, 2, 3, 4])
    #expect(
      list.preferences[3]
        == SchoolPreference(
          id: "new", type: .preferredRegions, value: .strings(["Midwest", "Northeast"]), priority: 4,
          isDealbreaker: true))
  }

  @Test("add refuses a used or empty id and an invalid value, together")
  func addRefused() {
    #expect(
      refusal { () throws(Validation) in
        try Self.three().adding(SchoolCriterion(.maxDistanceMiles, .int(10)), id: "id2")
      } == ["max_distance_miles: 10 is out of range; allowed 50–3000", #"id: "id2" is already used; use a unique id"#])
    #expect(
      refusal { () throws(Validation) in try Self.three().adding(SchoolCriterion(.mustHave, .string("Pool")), id: " ") }
        == [#"id: "" is empty; use a unique id"#])
  }

  @Test(
    "move takes a preference to a new priority and renumbers",
    arguments: [
      (3, 1, ["id3", "id1", "id2"]), (1, 3, ["id2", "id3", "id1"]), (2, 2, ["id1", "id2", "id3"]),
      (1, 2, ["id2", "id1", "id3"]),
    ])
  func move(from: Int, to: Int, order: [String]) throws {
    let moved = try Self.three().moving(fromPriority: from, toPriority: to)
    #expect(moved.preferences.map(\.id) == order)
    #expect(moved.preferences.map(\.priority) == [1, 2, 3])
  }

  @Test("moves outside the list are refused with the priorities there are")
  func moveRefused() {
    #expect(
      refusal { () throws(Validation) in try Self.three().moving(fromPriority: 4, toPriority: 0) } == [
        "from: 4 is out of range; allowed 1–3", "to: 0 is out of range; allowed 1–3",
      ])
    #expect(
      refusal { () throws(Validation) in try SchoolPreferences().moving(fromPriority: 1, toPriority: 1) }.first
        == "from: 1 does not exist; the list is empty")
  }

  @Test("remove by id or by priority renumbers")
  func remove() throws {
    let byID = try Self.three().removing(id: "id1")
    #expect(byID.preferences.map(\.id) == ["id2", "id3"])
    #expect(byID.preferences.map(\.priority) == [1, 2])
    let byPriority = try Self.three().removing(priority: 2)
    #expect(byPriority.preferences.map(\.id) == ["id1", "id3"])
    #expect(byPriority.preferences.map(\.priority) == [1, 2])
    #expect(
      refusal { () throws(Validation) in try Self.three().removing(id: "zz") } == [
        #"id: "zz" does not exist; use id1, id2 or id3"#
      ])
    #expect(
      refusal { () throws(Validation) in try Self.three().removing(priority: 9) } == [
        "priority: 9 is out of range; allowed 1–3"
      ])
    #expect(
      refusal { () throws(Validation) in try SchoolPreferences().removing(priority: 1) } == [
        "priority: 1 does not exist; the list is empty"
      ])
  }

  @Test("operations take stored preferences in priority order")
  func storedOrder() throws {
    let stored = SchoolPreferences(preferences: [
      SchoolPreference(id: "b", type: .division, value: .strings(["D1"]), priority: 2),
      SchoolPreference(id: "a", type: .maxDistanceMiles, value: .int(300), priority: 1),
    ])
    let removed = try stored.removing(priority: 1)
    #expect(removed.preferences == [SchoolPreference(id: "b", type: .division, value: .strings(["D1"]), priority: 1)])
  }

  @Test("dealbreakers are marked by priority")
  func dealbreaker() throws {
    let marked = try Self.three().settingDealbreaker(true, priority: 2)
    #expect(marked.preferences.map(\.isDealbreaker) == [false, true, false])
  }
}
