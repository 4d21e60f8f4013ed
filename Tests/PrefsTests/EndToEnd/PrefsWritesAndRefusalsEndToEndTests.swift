import Foundation
import TestSupport
import Testing

/// `deck prefs` as an operator and a QA engineer use it: refusals before anything is sent, the
/// cache after writes, imports, sections and deletes, each through the real binary against
/// `deck sandbox serve`.
@Suite("Preferences as the specs say", .endToEndTimeLimit)
struct PrefsWritesAndRefusalsEndToEndTests {
  func prefs(_ deck: DeckCLI, _ arguments: [String], status: Int32 = 0, stdin: String? = nil) throws
    -> DeckCLI.Result
  {
    let result = try deck.run(["prefs"] + arguments, stdin: stdin)
    #expect(result.status == status, "deck prefs \(arguments.joined(separator: " ")): \(result.stderr)")
    return result
  }

  func view(_ deck: DeckCLI, _ category: String, status: Int32 = 0) throws -> [String: Any] {
    try #require(try json(try prefs(deck, ["get", category, "--json"], status: status).stdout) as? [String: Any])
  }

  func data(_ deck: DeckCLI, _ category: String) throws -> [String: Any] {
    try #require(try view(deck, category)["data"] as? [String: Any])
  }

  /// Every preferences request answers 503 from now on.
  func breakService(_ deck: DeckCLI) throws {
    let fault = try deck.run(["sandbox", "fault", "add", "/api/user/preferences/**", "--status", "503"])
    #expect(fault.status == 0, "\(fault.stderr)")
  }

  // MARK: Issue 45, item 9: a new sport alone

  @Test("a new sport alone, over positions of the old one, is refused with the line that changes both")
  func aNewSportAloneSaysToChangeThePositions() throws {
    let (server, deck) = try DeckCLI.signedIn()
    defer { withExtendedLifetime(server) {} }
    _ = try prefs(deck, ["set", "player", "sport=Baseball", "primaryPosition=SS", "positions=SS,2B"])
    let refused = try prefs(deck, ["set", "player", "sport=Basketball"], status: 64)
    #expect(refused.stderr.contains(#"primaryPosition: "Shortstop" is not a Basketball position"#), "\(refused.stderr)")
    let example =
      #"deck prefs set player sport=Basketball primaryPosition="Point Guard" positions="Point Guard,Shooting Guard""#
    #expect(refused.stderr.contains("change them in the same command, e.g.: " + example), "\(refused.stderr)")
    #expect(refused.stderr.contains("(or clear them: primaryPosition= positions=)"))
    // The example, as a shell splits it, is accepted.
    _ = try prefs(
      deck,
      ["set", "player", "sport=Basketball", "primaryPosition=Point Guard", "positions=Point Guard,Shooting Guard"])
    #expect(try data(deck, "player")["primaryPosition"] as? String == "Point Guard")
    // A stored list the command leaves: the hint; positions it gives are its own problem: none.
    let partly = try prefs(deck, ["set", "player", "sport=Soccer", "primaryPosition=Forward"], status: 64)
    #expect(partly.stderr.contains("are not Soccer positions: change them in the same command"), "\(partly.stderr)")
    let own = try prefs(deck, ["set", "player", "sport=Soccer", "primaryPosition=Center", "positions="], status: 64)
    #expect(own.stderr.contains(#"primaryPosition: "Center" is not a Soccer position"#))
    #expect(!own.stderr.contains("same command"), "\(own.stderr)")
  }

  // MARK: 6. The offline cache holds what the server said last

  @Test("a write leaves the cache holding what was saved: offline get shows it")
  func cacheFollowsWrites() throws {
    let (server, deck) = try DeckCLI.signedIn()
    defer { withExtendedLifetime(server) {} }
    _ = try prefs(deck, ["get", "notifications"])  // caches the defaults (7)
    _ = try prefs(deck, ["set", "notifications", "followUpReminderDays=33"])
    _ = try prefs(deck, ["dashboard", "hide", "quickTasks"])  // never read with get
    try breakService(deck)
    let offline = try view(deck, "notifications")
    #expect(offline["source"] as? String == "cache")
    #expect((offline["data"] as? [String: Any])?["followUpReminderDays"] as? Int == 33)
    let dashboard = try view(deck, "dashboard")
    #expect(dashboard["source"] as? String == "cache")
    #expect(((dashboard["data"] as? [String: Any])?["widgets"] as? [String: Bool])?["quickTasks"] == false)
  }

  @Test("school operations and delete keep the cache too")
  func cacheFollowsSchoolAndDelete() throws {
    let (server, deck) = try DeckCLI.signedIn()
    defer { withExtendedLifetime(server) {} }
    _ = try prefs(deck, ["school", "template", "close-to-home"])
    _ = try prefs(deck, ["school", "add", "division", "D1"])
    _ = try prefs(deck, ["set", "location", "city=Austin"])
    _ = try prefs(deck, ["delete", "location"])
    try breakService(deck)
    let school = try #require(try data(deck, "school")["preferences"] as? [[String: Any]])
    #expect(school.compactMap { $0["type"] as? String } == ["max_distance_miles", "division"])
    let location = try view(deck, "location")
    #expect(location["source"] as? String == "cache")
    #expect((location["data"] as? [String: Any])?["city"] == nil, "the cache says nothing is stored")
  }

  // MARK: 8. Positions belong to the sport

  @Test("a position of another sport is refused before anything is sent; short forms are stored by name")
  func positionsBelongToTheSport() throws {
    let (server, deck) = try DeckCLI.signedIn()
    defer { withExtendedLifetime(server) {} }
    let refused = try prefs(
      deck, ["set", "player", "primarySport=Baseball", "primaryPosition=Goalie", "--trace"], status: 64)
    #expect(refused.stderr.contains(#"primaryPosition: "Goalie" is not a Baseball position"#))
    #expect(!refused.stderr.contains("> POST") && !refused.stderr.contains("> PATCH"), "nothing was sent")
    _ = try prefs(deck, ["set", "player", "primarySport=baseball", "primaryPosition=SS", "positions=SS,2B"])
    let player = try data(deck, "player")
    #expect(player["primarySport"] as? String == "Baseball")
    #expect(player["primaryPosition"] as? String == "Shortstop")
    #expect(player["positions"] as? [String] == ["Shortstop", "Second Base"])
    let other = try prefs(deck, ["set", "player", "primarySport=Soccer"], status: 64)
    #expect(other.stderr.contains(#"primaryPosition: "Shortstop" is not a Soccer position"#))
  }

  // MARK: 9. Coordinates belong to their address

  @Test("a changed address clears the old coordinates; a ZIP code of another state is refused unless --force")
  func staleCoordinates() throws {
    let (server, deck) = try DeckCLI.signedIn()
    defer { withExtendedLifetime(server) {} }
    _ = try prefs(deck, ["location", "set", "--city", "Cambridge", "--state", "MA", "--zip", "02139", "--geocode"])
    #expect(try prefs(deck, ["get", "location"]).stdout.contains("Coordinates ready"))
    let moved = try prefs(deck, ["location", "set", "--zip", "02142"])
    #expect(moved.stderr.contains("coordinates were cleared"))
    #expect(!(try prefs(deck, ["get", "location"]).stdout.contains("Coordinates ready")))
    var location = try data(deck, "location")
    #expect(location["latitude"] == nil && location["longitude"] == nil)
    #expect(location["zip"] as? String == "02142")
    // With --geocode the new address's coordinates are looked up instead.
    let relocated = try prefs(deck, ["location", "set", "--zip", "02139", "--geocode"])
    #expect(relocated.stderr.contains("Coordinates ready"))
    #expect(try data(deck, "location")["latitude"] is Double)
    // set clears them the same way.
    _ = try prefs(deck, ["set", "location", "city=Boston"])
    #expect(try data(deck, "location")["latitude"] == nil)

    let refused = try prefs(deck, ["location", "set", "--zip", "10001", "--state", "MA", "--geocode"], status: 64)
    #expect(refused.stderr.contains("ZIP code 10001 is in NY, not MA"))
    #expect(refused.stderr.contains("--force"))
    location = try data(deck, "location")
    #expect(location["zip"] as? String == "02139", "nothing was saved")
    let forced = try prefs(deck, ["location", "set", "--zip", "10001", "--state", "MA", "--geocode", "--force"])
    #expect(forced.stderr.contains("warning: ZIP code 10001 is in NY, not MA"))
    #expect(try data(deck, "location")["zip"] as? String == "10001")
  }

  // MARK: 10. School import and history

  @Test("import takes new school rows without id or priority; a failed import lists 20 problems; a move is one entry")
  func schoolImportAndHistory() throws {
    let (server, deck) = try DeckCLI.signedIn()
    defer { withExtendedLifetime(server) {} }
    let document = #"""
      {"version": 1, "categories": {"school": {"preferences": [
        {"type": "division", "value": ["D1", "D3"], "isDealbreaker": true},
        {"type": "max_distance_miles", "value": 300}
      ]}}}
      """#
    let imported = try prefs(deck, ["import", "-"], stdin: document)
    #expect(imported.stdout.contains("school: 2 changes"))
    let list = try #require(try data(deck, "school")["preferences"] as? [[String: Any]])
    #expect(list.compactMap { $0["type"] as? String } == ["division", "max_distance_miles"])
    #expect(list.compactMap { $0["priority"] as? Int } == [1, 2])

    let rows = (1...300).map { _ in #"{"type": "max_distance_miles", "value": 1}"# }
    let bad = #"{"version": 1, "categories": {"school": {"preferences": [\#(rows.joined(separator: ","))]}}}"#
    let refused = try prefs(deck, ["import", "-"], status: 64, stdin: bad)
    #expect(refused.stderr.contains("preference 20 max_distance_miles: 1 is out of range"))
    #expect(!refused.stderr.contains("preference 21 "))
    #expect(refused.stderr.contains("and 280 more"))
    #expect(refused.stderr.split(separator: "\n").count < 30, "\(refused.stderr.split(separator: "\n").count) lines")

    for index in 1...30 { _ = try prefs(deck, ["school", "add", "must_have", "Item \(index)"]) }
    let before = try #require(
      try json(try prefs(deck, ["history", "school", "--json", "--limit", "1000"]).stdout) as? [Any])
    let moved = try prefs(deck, ["school", "move", "32", "1"])
    #expect(moved.stdout.contains("must_have: 32. Item 30 → 1. Item 30"))
    let after = try #require(
      try json(try prefs(deck, ["history", "school", "--json", "--limit", "1000"]).stdout) as? [Any])
    #expect(after.count == before.count + 1, "one move, one history entry")
  }

  // MARK: 11. Names that say what they do

  @Test("hide --all hides a section, show --all shows it, show --none hides it; each empty section warns")
  func dashboardAllNone() throws {
    let (server, deck) = try DeckCLI.signedIn()
    defer { withExtendedLifetime(server) {} }
    func widgets() throws -> [String: Bool] {
      try #require(try data(deck, "dashboard")["widgets"] as? [String: Bool])
    }
    let hidden = try prefs(deck, ["dashboard", "hide", "--all", "widgets"])
    #expect(try widgets().values.allSatisfy { !$0 })
    #expect(
      hidden.stderr.contains("warning: every widget is hidden; the Dashboard Widgets section will show its empty state")
    )
    #expect(!hidden.stderr.contains("every card and widget"), "the cards are still shown")
    #expect(try prefs(deck, ["get", "dashboard"]).stderr.contains("every widget is hidden"))
    // With --json too (the prefs QA scenarios found it missing there).
    #expect(try prefs(deck, ["get", "dashboard", "--json"]).stderr.contains("every widget is hidden"))
    _ = try prefs(deck, ["dashboard", "show", "--all", "widgets"])
    #expect(try widgets().values.allSatisfy { $0 })
    _ = try prefs(deck, ["dashboard", "show", "--none", "widgets", "quickTasks"])
    #expect(try widgets().filter(\.value).map(\.key) == ["quickTasks"])
    _ = try prefs(deck, ["dashboard", "hide", "--none", "widgets", "quickTasks"])
    #expect(try widgets().filter { !$0.value }.map(\.key) == ["quickTasks"])
    let cards = try prefs(deck, ["dashboard", "hide", "--all", "statsCards"])
    #expect(cards.stderr.contains("every summary statistics card is hidden; the Summary Statistics section"))
    let everything = try prefs(deck, ["dashboard", "hide", "--all", "widgets"])
    #expect(everything.stderr.contains("every card and widget is hidden; the dashboard will show its empty state"))
  }

  @Test("delete with nothing stored says so plainly and sends no delete")
  func deleteNothing() throws {
    let (server, deck) = try DeckCLI.signedIn()
    defer { withExtendedLifetime(server) {} }
    let nothing = try prefs(deck, ["delete", "school", "--trace"])
    #expect(
      nothing.stderr.contains("There was nothing to delete: no school preferences are stored for athlete@sandbox.test"))
    #expect(!nothing.stderr.contains("> DELETE"))
    #expect(!nothing.stderr.contains("Deleted"))
    _ = try prefs(deck, ["school", "add", "division", "D1"])
    let deleted = try prefs(deck, ["delete", "school"])  // no terminal: no question
    #expect(deleted.stderr.contains("Deleted the stored school preferences"))
  }

  @Test("delete on a terminal asks first: no keeps the values, --yes does not ask")
  func deleteAsksOnATerminal() throws {
    let (server, deck) = try DeckCLI.signedIn()
    defer { withExtendedLifetime(server) {} }
    _ = try prefs(deck, ["school", "add", "division", "D1"])
    let declined = try PseudoTerminal(deck: deck, ["prefs", "delete", "school"])
    try declined.expect("Delete the stored school preferences of athlete@sandbox.test?")
    try declined.expect("[y/N]")
    declined.send("n\r")
    try declined.expect("Nothing was deleted.")
    #expect(try declined.waitForExit() == 1)
    #expect(try view(deck, "school")["source"] as? String == "stored")
    let confirmed = try PseudoTerminal(deck: deck, ["prefs", "delete", "school"])
    try confirmed.expect("[y/N]")
    confirmed.send("y\r")
    try confirmed.expect("Deleted the stored school preferences")
    #expect(try confirmed.waitForExit() == 0)
    _ = try prefs(deck, ["school", "add", "division", "D1"])
    let skipped = try PseudoTerminal(deck: deck, ["prefs", "delete", "school", "--yes"])
    try skipped.expect("Deleted the stored school preferences")
    #expect(try skipped.waitForExit() == 0)
    #expect(try view(deck, "school")["source"] as? String == "defaults")
  }
}
