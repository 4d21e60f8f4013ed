import Foundation
import PrefsRules
import Testing

@Suite("Hostile input is refused, never trapped on")
struct RobustnessTests {
  @Test("extreme numbers in stored data")
  func extremeNumbers() {
    let stored = PlayerDetails.decodeStored(
      jsonData(
        #"{"satScore": 1e300, "heightInches": -9223372036854775808, "weightLbs": 9223372036854775807, "gpa": 1e308}"#))
    #expect(stored.value == .defaults)
    #expect(
      stored.warnings == [
        "stored player details are invalid (satScore: 1e+300 is not a whole number; allowed 400–1600; heightInches: -9223372036854775808 is out of range; allowed 48–95 inches (4'0\"–7'11\"); weightLbs: 9223372036854775807 is out of range; allowed 50–500; gpa: 1e+308 is out of range; allowed 0.0–5.0); showing the defaults"
      ])
    let huge = PlayerDetails.decodeStored(
      jsonData(#"{"heightInches": -9223372036854775808, "weightLbs": 9223372036854775807, "gpa": 1e308}"#))
    #expect(
      huge.warnings == [
        "stored player details are invalid (heightInches: -9223372036854775808 is out of range; allowed 48–95 inches (4'0\"–7'11\"); weightLbs: 9223372036854775807 is out of range; allowed 50–500; gpa: 1e+308 is out of range; allowed 0.0–5.0); showing the defaults"
      ])
  }

  @Test(
    "odd typed input",
    arguments: [
      "satScore=-9223372036854775808", "weightLbs=9223372036854775807", "weightLbs=99999999999999999999",
      "gpa=1e309", "gpa=-nan", "height=999'11\"", "height=99999999999", "=", "", "====", "\u{0}=1", "gpa=\u{0}",
      "\(String(repeating: "k", count: 10_000))=1",
    ])
  func oddInput(text: String) {
    #expect(!refusal(PlayerDetails(), [text]).isEmpty)
  }

  @Test("a list of ten thousand blanks is one item")
  func blanks() throws {
    let text = "positions=" + String(repeating: ", ", count: 10_000) + "x"
    #expect(try PlayerDetails().applying([text]).value.positions == ["x"])
  }

  @Test("deeply nested JSON is not JSON we read")
  func deepNesting() {
    let stored = HomeLocation.decodeStored(jsonData(String(repeating: "[", count: 100_000)))
    #expect(stored.value == .defaults)
    #expect(stored.warnings.count == 1)
  }

  @Test("extreme priorities")
  func priorities() {
    let list = SchoolPreferences(preferences: [
      SchoolPreference(id: "a", type: .division, value: .strings(["D1"]), priority: .max),
      SchoolPreference(id: "b", type: .division, value: .strings(["D2"]), priority: .min),
    ])
    #expect(list.validate().messages.count == 1)
    #expect(
      refusal { () throws(Validation) in try list.moving(fromPriority: .min, toPriority: .max) } == [
        "from: -9223372036854775808 is out of range; allowed 1–2",
        "to: 9223372036854775807 is out of range; allowed 1–2",
      ])
  }

  @Test("long unknown names are shortened in messages")
  func longNames() {
    let name = String(repeating: "x", count: 500)
    let messages = refusal(HomeLocation(), ["\(name)=1"])
    #expect(messages.count == 1)
    #expect((messages.first?.count ?? 0) < 200)
  }
}
