import DeckValues
import Foundation
import PrefsRules
import Testing

@Suite("Player details")
struct PlayerDetailsTests {
  static let rangeMessage: [String: String] = [
    "gpa": "0.0–5.0", "satScore": "400–1600", "actScore": "1–36", "graduationYear": "2000–2100",
    "travelTeamYear": "2000–2100", "weightLbs": "50–500", "heightInches": "48–95 inches (4'0\"–7'11\")",
  ]

  @Test(
    "numeric bounds: just inside is accepted",
    arguments: [
      ("gpa", "0.0"), ("gpa", "5.0"), ("satScore", "400"), ("satScore", "1600"), ("actScore", "1"),
      ("actScore", "36"), ("graduationYear", "2000"), ("graduationYear", "2100"), ("travelTeamYear", "2000"),
      ("travelTeamYear", "2100"), ("weightLbs", "50"), ("weightLbs", "500"), ("heightInches", "48"),
      ("heightInches", "95"),
    ])
  func inside(key: String, value: String) throws {
    let (updated, changes) = try PlayerDetails().applying(["\(key)=\(value)"])
    #expect(updated[key] != .null)
    #expect(changes.map(\.field) == [key])
  }

  @Test(
    "numeric bounds: just outside is refused, naming the field, the value and the range",
    arguments: [
      ("gpa", "-0.1"), ("gpa", "5.01"), ("satScore", "399"), ("satScore", "1601"), ("actScore", "0"),
      ("actScore", "37"), ("graduationYear", "1999"), ("graduationYear", "2101"), ("travelTeamYear", "1999"),
      ("travelTeamYear", "2101"), ("weightLbs", "49"), ("weightLbs", "501"), ("heightInches", "47"),
      ("heightInches", "96"),
    ])
  func outside(key: String, value: String) {
    let allowed = Self.rangeMessage[key] ?? "?"
    #expect(refusal(PlayerDetails(), ["\(key)=\(value)"]) == ["\(key): \(value) is out of range; allowed \(allowed)"])
  }

  @Test("the brief's GPA message, also from the model itself")
  func gpaMessage() {
    var player = PlayerDetails()
    player.gpa = 5.5
    #expect(player.validate().messages == ["gpa: 5.5 is out of range; allowed 0.0–5.0"])
    let issue = player.validate().issues[0]
    #expect(issue.field == "gpa")
    #expect(issue.value == "5.5")
    #expect(issue.allowed == "0.0–5.0")
  }

  @Test("validation reports every problem, not just the first")
  func allProblems() {
    var player = PlayerDetails()
    player.gpa = 6
    player.actScore = 40
    player.bats = "X"
    #expect(
      player.validate().messages == [
        "bats: \"X\" is not allowed; use L, R or S",
        "gpa: 6.0 is out of range; allowed 0.0–5.0",
        "actScore: 40 is out of range; allowed 1–36",
      ])
  }

  @Test("bats takes L, R or S and throws L or R, in any case", arguments: ["L", "R", "S", "l", "r", "s"])
  func bats(value: String) throws {
    #expect(try PlayerDetails().applying(["bats=\(value)"]).value.bats == value.uppercased())
  }

  @Test("throws takes L or R", arguments: ["L", "R", "l", "r"])
  func throwsValues(value: String) throws {
    #expect(try PlayerDetails().applying(["throws=\(value)"]).value.throws_ == value.uppercased())
  }

  @Test("other hands are refused with the choices")
  func badHands() {
    #expect(refusal(PlayerDetails(), ["bats=X"]) == ["bats: \"X\" is not allowed; use L, R or S"])
    #expect(refusal(PlayerDetails(), ["throws=S"]) == ["throws: \"S\" is not allowed; use L or R"])
  }

  @Test("schoolState is upper-cased and must be a real state or DC", arguments: ["ca", "Ny", "DC", "wy"])
  func stateUppercased(value: String) throws {
    #expect(try PlayerDetails().applying(["schoolState=\(value)"]).value.schoolState == value.uppercased())
  }

  @Test("unknown or malformed state codes are refused", arguments: ["XX", "Cal", "C", "PR"])
  func badState(value: String) {
    #expect(
      refusal(PlayerDetails(), ["schoolState=\(value)"]) == [
        "schoolState: \"\(value.uppercased())\" is not a US state code; use a 2-letter US state or DC code, e.g. CA"
      ])
  }

  @Test("handles lose a leading @ and must have no spaces")
  func handles() throws {
    let player = try PlayerDetails().applying([
      "twitterHandle=@jane_doe", "instagram= @jane.doe ", "tiktokHandle=janedoe22",
    ]).value
    #expect(player.twitterHandle == "jane_doe")
    #expect(player.instagramHandle == "jane.doe")
    #expect(player.tiktokHandle == "janedoe22")
    #expect(
      refusal(PlayerDetails(), ["twitterHandle=jane doe"]) == [
        "twitterHandle: \"jane doe\" is not a handle; use 1–30 letters, digits, _ or . (no @, no spaces)"
      ])
    #expect(refusal(PlayerDetails(), ["tiktokHandle=tiktok.com/@jane"]).count == 1)
  }

  @Test(
    "email addresses",
    arguments: [
      ("jane@example.com", true), ("j.doe+rec@mail.school.edu", true), ("jane@example", false),
      ("jane example@x.com", false), ("@example.com", false), ("jane@@example.com", false),
    ])
  func email(value: String, valid: Bool) {
    let expected = valid ? [] : ["email: \"\(value)\" is not an email address; use an address like name@example.com"]
    #expect(refusal(PlayerDetails(), ["email=\(value)"]) == expected)
  }

  @Test(
    "facebookUrl is an http(s) URL",
    arguments: [
      ("https://facebook.com/jane", true), ("http://fb.com/x?id=1", true), ("facebook.com/jane", false),
      ("ftp://facebook.com/jane", false), ("https://", false),
    ])
  func facebook(value: String, valid: Bool) {
    let expected = valid ? [] : ["facebookUrl: \"\(value)\" is not a web address; use an http:// or https:// URL"]
    #expect(refusal(PlayerDetails(), ["facebookUrl=\(value)"]) == expected)
  }

  @Test(
    "phone numbers",
    arguments: [
      ("(555) 123-4567", true), ("+1 555 123 4567", true), ("555.123.4567", true), ("12345", false),
      ("555-CALL-NOW", false),
    ])
  func phone(value: String, valid: Bool) {
    let expected =
      valid
      ? []
      : [
        "phone: \"\(value)\" is not a phone number; use 7–15 digits, optionally with +, spaces, dashes, dots or parentheses"
      ]
    #expect(refusal(PlayerDetails(), ["phone=\(value)"]) == expected)
  }

  @Test("text is trimmed, blank text clears, and text over 200 characters is refused")
  func text() throws {
    var player = PlayerDetails()
    player.highSchool = "  Lincoln High \n"
    player.clubTeam = "   "
    let normalized = player.normalized()
    #expect(normalized.highSchool == "Lincoln High")
    #expect(normalized.clubTeam == nil)
    let long = String(repeating: "a", count: 201)
    #expect(
      refusal(PlayerDetails(), ["clubTeam=\(long)"]) == [
        "clubTeam: \"\(String(repeating: "a", count: 60))…\" is too long (201 characters); use text of up to 200 characters"
      ])
    #expect(
      try PlayerDetails().applying(["clubTeam=\(String(repeating: "a", count: 200))"]).value.clubTeam?.count == 200)
  }

  @Test("throws_ is the JSON key throws, both ways")
  func throwsKey() throws {
    var player = PlayerDetails()
    player.throws_ = "R"
    let object = try encodedObject(player)
    #expect(object == ["throws": .string("R")])
    let decoded = try JSONDecoder().decode(PlayerDetails.self, from: jsonData(#"{"throws": "L", "bats": "S"}"#))
    #expect(decoded.throws_ == "L")
    #expect(decoded.bats == "S")
  }

  @Test("unset fields are omitted, so the default player encodes as {}")
  func omitted() throws {
    #expect(try encodedJSON(PlayerDetails.defaults) == .object([:]))
    #expect(PlayerDetails.defaults == PlayerDetails())
  }

  @Test("a full player round-trips, and its JSON keys are exactly the catalog's")
  func fullRoundTrip() throws {
    let player = Fixtures.fullPlayer
    #expect(player.validate() == .valid)
    let object = try encodedObject(player)
    #expect(Set(object.keys) == Set(PlayerDetails.specs.map(\.key)))
    #expect(object.count == 39)
    #expect(object["positions"] == .array([.string("Shortstop"), .string("Second Base")]))
    #expect(object["gpa"] == .double(3.8))
    let decoded = try JSONDecoder().decode(PlayerDetails.self, from: JSONEncoder().encode(player))
    #expect(decoded == player)
  }
}

enum Fixtures {
  static var fullPlayer: PlayerDetails {
    var player = PlayerDetails()
    player.graduationYear = 2027
    player.highSchool = "Lincoln High"
    player.clubTeam = "Bay Area Thunder"
    player.primarySport = "Baseball"
    player.primaryPosition = "Shortstop"
    player.positions = ["Shortstop", "Second Base"]
    player.bats = "R"
    player.throws_ = "R"
    player.heightInches = 71
    player.weightLbs = 175
    player.gpa = 3.8
    player.satScore = 1350
    player.actScore = 30
    player.ncaaId = "2203948571"
    player.perfectGameId = "PG-1"
    player.prepBaseballId = "PBR-1"
    player.twitterHandle = "jane_doe"
    player.instagramHandle = "jane.doe"
    player.tiktokHandle = "janedoe"
    player.facebookUrl = "https://facebook.com/jane"
    player.phone = "555-123-4567"
    player.email = "jane@example.com"
    player.allowSharePhone = false
    player.allowShareEmail = true
    player.schoolName = "Lincoln High School"
    player.schoolAddress = "1 Main St"
    player.schoolCity = "Springfield"
    player.schoolState = "IL"
    player.ninthGradeTeam = "JV"
    player.ninthGradeCoach = "Coach A"
    player.tenthGradeTeam = "JV"
    player.tenthGradeCoach = "Coach B"
    player.eleventhGradeTeam = "Varsity"
    player.eleventhGradeCoach = "Coach C"
    player.twelfthGradeTeam = "Varsity"
    player.twelfthGradeCoach = "Coach D"
    player.travelTeamYear = 2025
    player.travelTeamName = "Thunder 17U"
    player.travelTeamCoach = "Coach E"
    return player
  }
}
