import DeckValues
import PrefsRules
import Testing

/// Issue 26, item 8 (spec 2A: "primary position (picker filtered by sport), all positions"):
/// positions belong to the primary sport.
@Suite("Positions by sport")
struct PositionTests {
  @Test("a position of another sport is refused, in primaryPosition and in positions")
  func otherSportRefused() {
    let messages = refusal(
      PlayerDetails(), ["primarySport=Baseball", "primaryPosition=Goalie", "positions=Shortstop,Goalie"])
    #expect(
      messages.contains(
        #"primaryPosition: "Goalie" is not a Baseball position; use a Baseball position: Pitcher, Catcher, First Base, Second Base, Third Base, Shortstop, Left Field, Center Field, Right Field or Designated Hitter"#
      ))
    #expect(messages.contains { $0.hasPrefix(#"positions: "Goalie" is not a Baseball position"#) })
    #expect(messages.count == 2)
  }

  @Test("the sport's positions are accepted in any case or as their short forms, and stored by full name")
  func shortFormsNormalised() throws {
    let (player, _) = try PlayerDetails().applying([
      "sport=baseball", "primaryPosition=ss", "positions=SS, 2b, shortstop, Center Field",
    ])
    #expect(player.primarySport == "Baseball")
    #expect(player.primaryPosition == "Shortstop")
    #expect(player.positions == ["Shortstop", "Second Base", "Center Field"])
    let (soccer, _) = try PlayerDetails().applying(["primarySport=Soccer", "primaryPosition=gk"])
    #expect(soccer.primaryPosition == "Goalkeeper")
  }

  @Test("changing the sport checks the stored positions against the new one")
  func sportChangeChecksPositions() throws {
    let (baseball, _) = try PlayerDetails().applying(["primarySport=Baseball", "primaryPosition=Pitcher"])
    #expect(
      refusal(baseball, ["primarySport=Soccer"]).contains {
        $0.hasPrefix(#"primaryPosition: "Pitcher" is not a Soccer position"#)
      })
    let (soccer, _) = try baseball.applying(["primarySport=Soccer", "primaryPosition=Forward"])
    #expect(soccer.primaryPosition == "Forward")
    #expect(try baseball.applying(["primarySport=Soccer", "primaryPosition="]).value.primaryPosition == nil)
  }

  @Test("the sport is one of the picker's; without a sport positions are not checked")
  func sportIsThePickers() throws {
    #expect(
      refusal(PlayerDetails(), ["primarySport=Quidditch"]).first?.hasPrefix(
        #"primarySport: "Quidditch" is not allowed; use Baseball, Softball"#) == true)
    #expect(try PlayerDetails().applying(["positions=SS,2B"]).value.positions == ["SS", "2B"])
  }

  @Test("stored details with a position of another sport fall back to the defaults, naming it")
  func storedOtherSport() {
    let stored = PlayerDetails.decodeStored(
      jsonData(#"{"primarySport": "Soccer", "primaryPosition": "Shortstop", "gpa": 3.5}"#))
    #expect(stored.value == PlayerDetails())
    #expect(stored.warnings.first?.contains(#"primaryPosition: "Shortstop" is not a Soccer position"#) == true)
    let legacy = PlayerDetails.decodeStored(jsonData(#"{"primarySport": "Baseball", "positions": ["SS", "2B"]}"#))
    #expect(legacy.warnings.isEmpty, "short forms read as the positions they stand for")
    #expect(legacy.value.positions == ["Shortstop", "Second Base"])
  }

  @Test("a request body as the API takes it is checked as sent: a short form is not a position there")
  func requestChecksAsSent() {
    let json = JSONValue.parse(jsonData(#"{"primarySport": "Baseball", "primaryPosition": "SS"}"#)) ?? .null
    guard case .invalid(let validation) = PrefsRequest.read(json, as: .player) else {
      Issue.record("accepted")
      return
    }
    #expect(validation.messages.first?.hasPrefix(#"primaryPosition: "SS" is not a Baseball position"#) == true)
  }
}
