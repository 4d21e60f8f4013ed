import PrefsRules
import Testing

@Suite("key=value assignments")
struct AssignmentTests {
  @Test("values are converted to each field's type")
  func types() throws {
    let (player, _) = try PlayerDetails().applying([
      "graduationYear=2027", "gpa=3.85", "allowSharePhone=yes", "positions=SS,2B", "highSchool=Lincoln High",
    ])
    #expect(player.graduationYear == 2027)
    #expect(player.gpa == 3.85)
    #expect(player.allowSharePhone == true)
    #expect(player.positions == ["SS", "2B"])
    #expect(player.highSchool == "Lincoln High")
  }

  @Test("assignments parse to typed values")
  func parsed() throws {
    #expect(try PlayerDetails.assignment("gpa=4") == Assignment(key: "gpa", value: .double(4)))
    #expect(try PlayerDetails.assignment("satScore = 1400 ") == Assignment(key: "satScore", value: .int(1400)))
    #expect(
      try PlayerDetails.assignment("positions=SS, 2B")
        == Assignment(key: "positions", value: .array([.string("SS"), .string("2B")])))
    #expect(try PlayerDetails.assignment("gpa=") == Assignment(key: "gpa", value: .null))
  }

  @Test("lists drop blanks and repeats")
  func lists() throws {
    #expect(try PlayerDetails().applying(["positions=SS, 2B, ,SS,"]).value.positions == ["SS", "2B"])
    #expect(try PlayerDetails().applying(["positions= , "]).value.positions == nil)
  }

  @Test("the value is everything after the first =")
  func firstEquals() throws {
    let url = "https://facebook.com/profile.php?id=123"
    #expect(try PlayerDetails().applying(["facebookUrl=\(url)"]).value.facebookUrl == url)
  }

  @Test("key= clears an optional field")
  func clearing() throws {
    var player = PlayerDetails()
    player.gpa = 3.2
    player.positions = ["C"]
    let (cleared, changes) = try player.applying(["gpa=", "positions="])
    #expect(cleared.gpa == nil)
    #expect(cleared.positions == nil)
    #expect(
      changes == [FieldChange(field: "positions", old: "C", new: nil), FieldChange(field: "gpa", old: "3.2", new: nil)])
  }

  @Test(
    "keys are found in any case, kebab- or snake-case, or by alias",
    arguments: ["graduationYear", "GRADUATIONYEAR", "graduation-year", "graduation_year", "Graduation Year"])
  func keySpellings(key: String) throws {
    #expect(try PlayerDetails().applying(["\(key)=2028"]).value.graduationYear == 2028)
  }

  @Test("unknown keys suggest the nearest")
  func unknownKeys() {
    #expect(
      refusal(PlayerDetails(), ["graduatonYear=2027"]) == [
        "graduatonYear: unknown player field; did you mean graduationYear?"
      ])
    #expect(refusal(PlayerDetails(), ["gpaa=3"]) == ["gpaa: unknown player field; did you mean gpa?"])
    #expect(refusal(HomeLocation(), ["zipcode=02139"]) == ["zipcode: unknown location field; did you mean zip?"])
    #expect(
      refusal(NotificationSettings(), ["dailyDigest=off"]) == [
        "dailyDigest: unknown notifications field; did you mean enableDailyDigest?"
      ])
  }

  @Test("type errors name the field, the value and what is allowed")
  func typeErrors() {
    #expect(
      refusal(PlayerDetails(), ["graduationYear=20x7"]) == [
        #"graduationYear: "20x7" is not a whole number; allowed 2000–2100"#
      ])
    #expect(refusal(PlayerDetails(), ["gpa=high"]) == [#"gpa: "high" is not a number; allowed 0.0–5.0"#])
    #expect(refusal(PlayerDetails(), ["allowShareEmail=sure"]) == [#"allowShareEmail: "sure" is not true or false"#])
    #expect(
      refusal(PlayerDetails(), ["satScore=99999999999999999999999"]) == [
        #"satScore: "99999999999999999999999" is not a whole number; allowed 400–1600"#
      ])
  }

  @Test("every problem is reported together and nothing is applied")
  func together() {
    #expect(
      refusal(PlayerDetails(), ["gpa 3.8", "gpa=9", "gpa=3", "bats=Q", "nope=1"]) == [
        #"gpa 3.8: has no "="; use key=value, or key= to clear"#,
        "nope: unknown player field; did you mean gpa, phone or bats?",
        "gpa: is set more than once; set each key once",
        #"bats: "Q" is not allowed; use L, R or S"#,
        "gpa: 9.0 is out of range; allowed 0.0–5.0",
      ])
    #expect(
      refusal(PlayerDetails(), ["gpa=9", "bats=Q", "gpa=3"]) == [
        "gpa: is set more than once; set each key once",
        #"bats: "Q" is not allowed; use L, R or S"#,
        "gpa: 9.0 is out of range; allowed 0.0–5.0",
      ])
  }

  @Test("typed assignments are checked against the field's type")
  func typedAssignments() {
    #expect(
      refusal { () throws(Validation) in
        try PlayerDetails().applying([Assignment(key: "gpa", value: .string("x"))])
      } == [#"gpa: "x" is not a number; allowed 0.0–5.0"#])
    #expect(
      refusal { () throws(Validation) in
        try PlayerDetails().applying([Assignment(key: "colour", value: .string("x"))])
      } == ["colour: unknown player field; did you mean throws, phone or bats?"])
  }
}
