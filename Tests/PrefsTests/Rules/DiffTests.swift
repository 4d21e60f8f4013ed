import PrefsRules
import Testing

@Suite("What changed")
struct DiffTests {
  @Test("field changes in catalog order, with readable values")
  func player() throws {
    var old = PlayerDetails()
    old.gpa = 3.5
    old.heightInches = 71
    old.highSchool = "Lincoln"
    let (new, changes) = try old.applying(["gpa=3.8", "positions=SS,2B", "height=6'0\"", "highSchool="])
    #expect(
      changes == [
        FieldChange(field: "highSchool", old: "Lincoln", new: nil),
        FieldChange(field: "positions", old: nil, new: "SS, 2B"),
        FieldChange(field: "heightInches", old: "5'11\"", new: "6'0\""),
        FieldChange(field: "gpa", old: "3.5", new: "3.8"),
      ])
    #expect(old.changes(to: new) == changes)
    #expect(changes[3].description == "gpa: 3.5 → 3.8")
    #expect(changes[0].description == "highSchool: Lincoln → (unset)")
    #expect(new.changes(to: new).isEmpty)
  }

  @Test("setting a field to its current value is no change")
  func noChange() throws {
    #expect(try NotificationSettings().applying(["enableDailyDigest=true"]).changes.isEmpty)
  }

  @Test("school: one change per added, removed or moved preference, plus the template; renumbering is none")
  func school() throws {
    let old = SchoolPreferences().applying(.bestFit, newID: IDCounter().make)
    let new = try old.removing(id: "id1").adding(SchoolCriterion(.mustHave, .string("Nursing")), id: "x")
    #expect(
      old.changes(to: new) == [
        FieldChange(field: "max_distance_miles", old: "1. 500 miles", new: nil),
        FieldChange(field: "must_have", old: nil, new: "3. Nursing"),
      ])
    let other = old.applying(.closeToHome, newID: { "c" })
    #expect(
      old.changes(to: other).last
        == FieldChange(field: "templateUsed", old: "Best Fit (Balanced)", new: "Close to Home"))
  }

  @Test("the tagged form diffs within a category only")
  func tagged() {
    let old = PrefsValue.notifications(NotificationSettings())
    let new = PrefsValue.notifications(NotificationSettings(enableDailyDigest: false))
    #expect(old.changes(to: new) == [FieldChange(field: "enableDailyDigest", old: "true", new: "false")])
    #expect(old.changes(to: .location(HomeLocation())).isEmpty)
  }
}
