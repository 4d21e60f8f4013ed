import PrefsRules
import Testing

@Suite("Height input")
struct HeightTests {
  @Test(
    "human heights are read as inches",
    arguments: [
      ("5'11\"", 71), ("5'11", 71), ("5' 11\"", 71), ("5ft11in", 71), ("5 ft 11 in", 71), ("5 feet 11 inches", 71),
      ("5-11", 71), ("71", 71), ("71in", 71), ("71\"", 71), ("6'", 72), ("6ft", 72), ("5’11”", 71),
      ("5′11″", 71), ("5'11''", 71), ("4'0\"", 48), ("7'11\"", 95), ("  6'2\"  ", 74),
    ])
  func parses(text: String, inches: Int) {
    #expect(Height.parseInches(text) == inches)
  }

  @Test(
    "anything else is not a height",
    arguments: ["", "tall", "5'12\"", "5-", "5.5", "5'11\"x", "1000", "five", "5 11", "'11", "-5"])
  func rejects(text: String) {
    #expect(Height.parseInches(text) == nil)
  }

  @Test("inches are shown as the pickers show them")
  func formats() {
    #expect(Height.format(inches: 71) == "5'11\"")
    #expect(Height.format(inches: 48) == "4'0\"")
    #expect(Height.format(inches: 95) == "7'11\"")
  }

  @Test("height=… and heightInches=… take human heights; the pickers' range applies")
  func assignment() throws {
    #expect(try PlayerDetails().applying(["height=5'11\""]).value.heightInches == 71)
    #expect(try PlayerDetails().applying(["heightInches=6-2"]).value.heightInches == 74)
    #expect(
      refusal(PlayerDetails(), ["height=8'0\""]) == [
        "heightInches: 96 is out of range; allowed 48–95 inches (4'0\"–7'11\")"
      ])
    #expect(
      refusal(PlayerDetails(), ["height=tall"]) == [
        "heightInches: \"tall\" is not a height such as 5'11\" or 71; allowed 48–95 inches (4'0\"–7'11\")"
      ])
  }
}
