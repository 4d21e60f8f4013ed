import Foundation
import GeocoderAPI
import PrefsRules
import TestSupport
import Testing

@testable import PrefsModule

/// `deck prefs` in-process: what is refused before anything is sent, the edit document and
/// completion, without a server.
@Suite("deck prefs in-process", .serialized, .timeLimit(.minutes(2)))
struct PrefsCommandTests {
  let deck: InProcessDeck

  init() async throws { deck = try await InProcessDeck() }

  @Test("usage errors exit 64 naming the field, before any request (not even sign-in is needed)")
  func refusedBeforeSending() async {
    let range = await deck.run(["prefs", "set", "notifications", "followUpReminderDays=0"])
    #expect(range.status == 64)
    #expect(range.stderr.contains("followUpReminderDays: 0 is out of range; allowed 1–90"))
    #expect(range.stderr.contains("nothing was sent"))
    let school = await deck.run(["prefs", "set", "school", "division=D1"])
    #expect(school.status == 64)
    #expect(school.stderr.contains("school preferences are a list"))
    let category = await deck.run(["prefs", "get", "preferences"])
    #expect(category.status == 64)
    #expect(category.stderr.contains("'player', 'school', 'notifications', 'dashboard' or 'location'"))
    let reset = await deck.run(["prefs", "reset", "location"])
    #expect(reset.status == 64)
    #expect(reset.stderr.contains("deck prefs delete location"))
    let limit = await deck.run(["prefs", "history", "player", "--limit", "0"])
    #expect(limit.status == 64)
    let dashboard = await deck.run(["prefs", "dashboard", "hide", "--none", "gadgets"])
    #expect(dashboard.status == 64)
    #expect(dashboard.stderr.contains("gadgets: unknown dashboard section; did you mean widgets"))
    let template = await deck.run(["prefs", "school", "template", "ivy"])
    #expect(template.status == 64)
  }

  @Test("not signed in: exit 77 with the way to sign in")
  func notSignedIn() async {
    let result = await deck.run(["prefs", "get", "player", "--no-cache"])
    #expect(result.status == 77)
    #expect(result.stderr.contains("deck auth login"))
  }

  @Test("the edit document reads back what it writes, typed by the catalog")
  func editDocumentRoundTrip() throws {
    var player = PlayerDetails()
    player.gpa = 3.8
    player.positions = ["SS", "2B"]
    player.heightInches = 71
    player.schoolState = "TX"
    player.highSchool = "Lincoln \"High\" # 1"
    for value in [
      PrefsValue.player(player), .notifications(NotificationSettings(followUpReminderDays: 21, quietHoursEnd: "06:30")),
      .dashboard(try DashboardWidgetVisibility().hiding(["quickTasks"])),
      .location(HomeLocation(zip: "02139", latitude: 42.36, longitude: -71.1)),
      .school(SchoolPreferences().applying(.academicExcellence, newID: { UUID().uuidString })),
    ] {
      let text = PrefsEditDocument.render(value, owner: "a@b.co", environment: "sandbox")
      #expect(try PrefsEditDocument.parse(text, as: value.category).get() == value, "\(text)")
    }
  }

  @Test("typed text in the editor: ZIP codes stay text, heights and lists are read, problems are named")
  func editDocumentTyping() throws {
    let location = try PrefsEditDocument.parse("zip: 02139\nstate: ma\nlatitude: 42\n", as: .location).get()
    #expect(location == .location(HomeLocation(state: "MA", zip: "02139", latitude: 42)))
    let player = try PrefsEditDocument.parse("heightInches: 6'1\"\npositions: SS, 2B\nbats: l\n", as: .player).get()
    guard case .player(let details) = player else {
      Issue.record("not player details")
      return
    }
    #expect(details.heightInches == 73)
    #expect(details.positions == ["SS", "2B"])
    #expect(details.bats == "L")
    let refused = PrefsEditDocument.parse("gpaa: 3\ngpa: 9\n", as: .player)
    guard case .failure(let validation) = refused else {
      Issue.record("accepted")
      return
    }
    #expect(validation.messages.contains("gpaa: unknown player field; did you mean gpa?"))
    #expect(validation.messages.contains("gpa: 9.0 is out of range; allowed 0.0–5.0"))
    guard case .failure(let syntax) = PrefsEditDocument.parse("gpa: [3\n", as: .player) else {
      Issue.record("accepted bad YAML")
      return
    }
    #expect(syntax.messages.first?.hasPrefix("YAML: is not valid YAML (line") == true)
    #expect(PrefsEditDocument.isEmpty("# only\n\n  # comments\n"))
    // Reopening keeps the user's text below a new header.
    let reopened = PrefsEditDocument.render(
      .player(PlayerDetails()), owner: "a@b.co", environment: "sandbox", problems: ["gpa: bad"],
      body: PrefsEditDocument.render(.player(PlayerDetails()), owner: "a@b.co", environment: "sandbox") + "gpa: 9\n")
    #expect(reopened.components(separatedBy: "# Editing the").count == 2)
    #expect(reopened.contains("#   gpa: bad"))
    #expect(reopened.hasSuffix("gpa: 9\n"))
  }

  @Test("school edits: the order is the priority, new items get ids, categories come from types")
  func schoolEdit() throws {
    let text = """
      preferences:
        - type: max_distance_miles
          value: 300
        - type: division
          value: D1, D3
          isDealbreaker: yes
      """
    guard case .school(let school) = try PrefsEditDocument.parse(text, as: .school).get() else {
      Issue.record("not school")
      return
    }
    #expect(school.preferences.map(\.type) == [.maxDistanceMiles, .division])
    #expect(school.preferences.map(\.priority) == [1, 2])
    #expect(school.preferences[1].value == .strings(["D1", "D3"]))
    #expect(school.preferences[1].isDealbreaker)
    #expect(school.preferences.allSatisfy { !$0.id.isEmpty })
  }

  @Test("completion: keys as key=, then the key's values; school values by type")
  func completion() {
    let words = ["deck", "prefs", "set", "player"]
    #expect(PrefsCompletion.assignments(words: words, prefix: "ba") == ["bats="])
    #expect(PrefsCompletion.assignments(words: words, prefix: "bats=") == ["bats=L", "bats=R", "bats=S"])
    #expect(PrefsCompletion.assignments(words: words, prefix: "schoolState=t") == ["schoolState=TN", "schoolState=TX"])
    #expect(
      PrefsCompletion.assignments(words: ["deck", "prefs", "set", "dashboard"], prefix: "social")
        == ["socialMedia="])
    #expect(PrefsCompletion.assignments(words: ["deck", "prefs", "set", "school"], prefix: "").isEmpty)
    #expect(
      PrefsCompletion.schoolValues(words: ["deck", "prefs", "school", "add", "school_size"], prefix: "")
        == ["small", "medium", "large", "very_large"])
  }

  @Test("the cache's file names cannot leave their directory")
  func cacheNames() {
    #expect(PrefsCache.fileName("athlete@sandbox.test") == "athlete@sandbox.test")
    #expect(PrefsCache.fileName("../x/y") == "%2E.%2Fx%2Fy")
    #expect(PrefsCache.fileName("") == "%00")
    #expect(PrefsReader.age(since: Date(timeIntervalSinceNow: -125)) == "2 minutes ago")
  }

  /// The US Census Bureau's answer as it comes (more fields than the contract's subset, which
  /// the real service is free to send): deck's generated client reads it.
  @Test("a Census geocoder answer, with the fields deck does not use, decodes")
  func censusShape() throws {
    let census = #"""
      {"result":{"input":{"address":{"address":"4600 Silver Hill Rd, Washington, DC 20233"},
      "benchmark":{"isDefault":true,"benchmarkDescription":"Public Address Ranges - Current Benchmark","id":"4",
      "benchmarkName":"Public_AR_Current"}},"addressMatches":[{"tigerLine":{"side":"L","tigerLineId":"76355984"},
      "coordinates":{"x":-76.92748724230096,"y":38.84601622386617},"addressComponents":{"zip":"20233",
      "streetName":"SILVER HILL","preType":"","city":"WASHINGTON","preDirection":"","suffixDirection":"",
      "fromAddress":"4600","state":"DC","suffixType":"RD","toAddress":"4700","suffixQualifier":"","preQualifier":""},
      "matchedAddress":"4600 SILVER HILL RD, WASHINGTON, DC, 20233"}]}}
      """#
    let response = try JSONDecoder().decode(Components.Schemas.GeocodeResponse.self, from: Data(census.utf8))
    let match = try #require(response.result.addressMatches.first)
    #expect(match.coordinates.y == 38.84601622386617)
    #expect(match.addressComponents.state == "DC")
    #expect(response.result.input.benchmark.benchmarkName == "Public_AR_Current")
  }
}
