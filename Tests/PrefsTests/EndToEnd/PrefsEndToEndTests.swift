import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `deck prefs` through the real binary against `deck sandbox serve`: the testing checklist of
/// preferences.md section 6, every row a terminal client can check.
@Suite("Preferences", .endToEndTimeLimit)
struct PrefsEndToEndTests {
  func signedIn(_ email: String = "athlete@sandbox.test") throws -> (SandboxProcess, DeckCLI) {
    try DeckCLI.signedIn(email)
  }

  func prefs(_ deck: DeckCLI, _ arguments: [String], status: Int32 = 0) throws -> DeckCLI.Result {
    let result = try deck.run(["prefs"] + arguments)
    #expect(result.status == status, "deck prefs \(arguments.joined(separator: " ")): \(result.stderr)")
    return result
  }

  /// `deck prefs get CATEGORY --json`.
  func get(_ deck: DeckCLI, _ category: String, _ extra: [String] = []) throws -> [String: Any] {
    try #require(try json(try prefs(deck, ["get", category, "--json"] + extra).stdout) as? [String: Any])
  }

  func data(_ deck: DeckCLI, _ category: String) throws -> [String: Any] {
    try #require(try get(deck, category)["data"] as? [String: Any])
  }

  func inspect(_ deck: DeckCLI, _ email: String = "athlete@sandbox.test") throws -> [String: Any] {
    let result = try deck.run(["sandbox", "inspect", "prefs", email, "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    return try #require(try json(result.stdout) as? [String: Any])
  }

  func stored(_ inspection: [String: Any], _ category: String) -> [String: Any]? {
    let categories = inspection["categories"] as? [[String: Any]] ?? []
    return categories.first { $0["category"] as? String == category }
  }

  // MARK: Happy path

  @Test("each page loads the defaults when nothing is saved, and says so")
  func defaultsLoad() throws {
    let (server, deck) = try signedIn()
    defer { withExtendedLifetime(server) {} }
    let human = try prefs(deck, ["get", "notifications"])
    #expect(human.stderr.contains("nothing stored for athlete@sandbox.test, showing the defaults"))
    #expect(human.stdout.contains("In-App Notifications"))
    #expect(human.stdout.contains("Days between follow-ups"))
    #expect(human.stdout.contains("High-Priority Only"))
    let view = try get(deck, "notifications")
    #expect(view["source"] as? String == "defaults")
    #expect((view["data"] as? [String: Any])?["followUpReminderDays"] as? Int == 7)
    #expect((view["data"] as? [String: Any])?["emailOnlyHighPriority"] as? Bool == false)
    for category in ["player", "school", "dashboard", "location"] {
      #expect(try get(deck, category)["source"] as? String == "defaults", "\(category)")
    }
    let player = try prefs(deck, ["get", "player"]).stdout
    for section in ["Basic Information", "Athletic Profile", "Physical Profile", "Academics", "Travel Team"] {
      #expect(player.contains(section), "\(section)")
    }
    #expect(stored(try inspect(deck), "notifications")?["data"] is NSNull, "reading stores nothing")
  }

  @Test("changes are typed, sent, persist, print what changed and are recorded in the history")
  func changesPersist() throws {
    let (server, deck) = try signedIn()
    defer { withExtendedLifetime(server) {} }
    let set = try prefs(deck, ["set", "notifications", "followUpReminderDays=14", "enableDailyDigest=off"])
    #expect(set.stdout.contains("followUpReminderDays: 7 → 14"))
    #expect(set.stdout.contains("enableDailyDigest: true → false"))
    let view = try get(deck, "notifications")
    #expect(view["source"] as? String == "stored")
    #expect((view["data"] as? [String: Any])?["followUpReminderDays"] as? Int == 14)

    let player = try prefs(deck, ["set", "player", "positions=SS,2B", "height=5'11\"", "gpa=3.8", "schoolState=tx"])
    #expect(player.stdout.contains("positions: (unset) → SS, 2B"))
    #expect(player.stdout.contains("heightInches: (unset) → 5'11\""))
    #expect(player.stderr.contains("fit scores are being recalculated"))
    let details = try data(deck, "player")
    #expect(details["positions"] as? [String] == ["SS", "2B"])
    #expect(details["heightInches"] as? Int == 71)
    #expect(details["schoolState"] as? String == "TX", "upper-cased as the app's field does")
    _ = try prefs(deck, ["set", "player", "gpa="])
    #expect(try data(deck, "player")["gpa"] == nil, "key= clears (a PATCH with null)")

    let history = try prefs(deck, ["history", "player", "--json"]).stdout
    let entries = try #require(try json(history) as? [[String: Any]])
    #expect(entries.first?["field"] as? String == "gpa", "newest first")
    #expect(entries.first?["old"] as? String == "3.8")
    #expect(entries.first?["new"] is NSNull)
    let table = try prefs(deck, ["history", "notifications"]).stdout
    #expect(table.contains("followUpReminderDays"))
    #expect(table.contains("7 → 14"))
    #expect(
      try prefs(deck, ["history", "notifications", "--limit", "1", "--json"]).stdout.components(
        separatedBy: "\"field\""
      ).count == 2)

    let inspection = try inspect(deck)
    #expect(inspection["fitScoreRecalculations"] as? Int == 2, "one per player save")
    #expect((stored(inspection, "notifications")?["history"] as? [Any])?.count == 2)
    let unchanged = try prefs(deck, ["set", "notifications", "followUpReminderDays=14"])
    #expect(unchanged.stderr.contains("Nothing changed; nothing was sent."))
  }

  @Test("Reset to Defaults works on notifications and the dashboard; other categories name delete")
  func resetWorks() throws {
    let (server, deck) = try signedIn()
    defer { withExtendedLifetime(server) {} }
    _ = try prefs(deck, ["set", "notifications", "enableDeadlineAlerts=no", "followUpReminderDays=30"])
    _ = try prefs(deck, ["dashboard", "hide", "quickTasks"])
    let reset = try prefs(deck, ["reset", "notifications"])
    #expect(reset.stdout.contains("followUpReminderDays: 30 → 7"))
    #expect((try data(deck, "notifications"))["enableDeadlineAlerts"] as? Bool == true)
    _ = try prefs(deck, ["reset", "dashboard"])
    #expect(((try data(deck, "dashboard"))["widgets"] as? [String: Bool])?["quickTasks"] == true)
    let refused = try prefs(deck, ["reset", "player"], status: 64)
    #expect(refused.stderr.contains("deck prefs delete player"))

    _ = try prefs(deck, ["set", "location", "city=Austin"])
    let deleted = try prefs(deck, ["delete", "location"])
    #expect(deleted.stderr.contains("Deleted the stored location settings"))
    #expect(try get(deck, "location")["source"] as? String == "defaults")
    #expect(try prefs(deck, ["delete", "location"]).stderr.contains("There was nothing to delete"))
  }

  @Test("player details are read-only for parents: refused before anything is sent (exit 77)")
  func parentsAreReadOnly() throws {
    let (server, deck) = try signedIn()
    _ = try prefs(deck, ["set", "player", "gpa=3.9"])
    let parent = try DeckCLI(server: server)
    let login = try parent.run(
      ["auth", "login", "--email", "parent@sandbox.test", "--password-stdin"], stdin: "sandbox")
    #expect(login.status == 0)
    let view = try get(parent, "player")
    #expect(view["readOnly"] as? Bool == true)
    #expect(view["owner"] as? String == "athlete@sandbox.test")
    #expect((view["data"] as? [String: Any])?["gpa"] as? Double == 3.9, "the linked athlete's details")
    #expect(try prefs(parent, ["get", "player"]).stderr.contains("(read-only)"))
    for arguments in [["set", "player", "gpa=2"], ["delete", "player"], ["edit", "player"]] {
      let refused = try parent.run(["prefs"] + arguments + ["--trace"])
      #expect(refused.status == 77, "\(arguments)")
      #expect(refused.stderr.contains("Player details are read-only for parents"))
      #expect(!refused.stderr.contains("> "), "nothing was sent: \(refused.stderr)")
    }
    // The server refuses too, whatever the client knows (a token without the role claim is not
    // possible here, so the sandbox's 403 is covered by the sandbox tests); parents write the rest.
    _ = try prefs(parent, ["set", "notifications", "enableDailyDigest=false"])
    #expect(try data(deck, "player")["gpa"] as? Double == 3.9)

    // A parent who signs up with --role parent is read-only too.
    let newParent = try DeckCLI(server: server)
    let signup = try newParent.run(
      ["auth", "signup", "--email", "mom@example.com", "--role", "parent", "--password-stdin"], stdin: "pw-123456")
    #expect(signup.status == 0, "\(signup.stderr)")
    #expect(try newParent.run(["prefs", "set", "player", "gpa=3"]).status == 77)
    #expect(try inspect(deck, "mom@example.com")["role"] as? String == "parent")
    #expect(try newParent.run(["auth", "signup", "--email", "x@example.com", "--role", "coach"]).status == 64)
  }

  @Test("school templates replace the list, exactly as the spec's table gives them")
  func templatesApply() throws {
    let (server, deck) = try signedIn()
    defer { withExtendedLifetime(server) {} }
    _ = try prefs(deck, ["school", "add", "must_have", "Engineering"])
    // Issue 45: a list with preferences is replaced without a terminal only with --yes.
    let refused = try prefs(deck, ["school", "template", "d1-power-conference"], status: 64)
    #expect(refused.stderr.contains("would replace the 1 school preference of athlete@sandbox.test; nothing was sent."))
    #expect(refused.stderr.contains("Add --yes to replace them."))
    let applied = try prefs(deck, ["school", "template", "d1-power-conference", "--yes"])
    #expect(applied.stdout.contains("Template: D1 Power Conference"))
    let school = try data(deck, "school")
    let preferences = try #require(school["preferences"] as? [[String: Any]])
    #expect(
      preferences.compactMap { $0["type"] as? String } == ["division", "conference_type", "scholarship_required"])
    #expect(preferences[0]["value"] as? [String] == ["D1"])
    #expect(preferences[1]["value"] as? [String] == ["Power 4"])
    #expect(preferences[2]["value"] as? Bool == true)
    #expect(preferences.compactMap { $0["priority"] as? Int } == [1, 2, 3])
    #expect(school["templateUsed"] as? String == "D1 Power Conference")
    let list = try prefs(deck, ["school", "list"]).stdout
    #expect(list.contains("Scholarship required  Yes"))
    _ = try prefs(deck, ["school", "template", "Best Fit (Balanced)", "-y"])
    let best = try #require(try data(deck, "school")["preferences"] as? [[String: Any]])
    #expect(best.compactMap { $0["type"] as? String } == ["max_distance_miles", "min_academic_rating", "division"])
    #expect(
      try prefs(deck, ["school", "template", "close-to-hom"], status: 64).stderr.contains("did you mean close-to-home"))
  }

  @Test("reordering renumbers the priorities; remove by priority or id; badges show")
  func reorderRenumbers() throws {
    let (server, deck) = try signedIn()
    defer { withExtendedLifetime(server) {} }
    _ = try prefs(deck, ["school", "add", "division", "D1,D3", "--dealbreaker"])
    _ = try prefs(deck, ["school", "add", "max_distance_miles", "500"])
    _ = try prefs(deck, ["school", "add", "preferred_regions", "west coast,Pacific NW"])
    let moved = try prefs(deck, ["school", "move", "3", "1"])
    #expect(moved.stdout.contains("preferred_regions: 3. West Coast, Pacific NW → 1. West Coast, Pacific NW"))
    var list = try #require(try data(deck, "school")["preferences"] as? [[String: Any]])
    #expect(list.compactMap { $0["type"] as? String } == ["preferred_regions", "division", "max_distance_miles"])
    #expect(list.compactMap { $0["priority"] as? Int } == [1, 2, 3])
    #expect(try prefs(deck, ["school", "list"]).stdout.contains("dealbreaker"))
    _ = try prefs(deck, ["school", "remove", "1"])
    list = try #require(try data(deck, "school")["preferences"] as? [[String: Any]])
    #expect(list.compactMap { $0["priority"] as? Int } == [1, 2])
    let id = try #require(list.last?["id"] as? String)
    _ = try prefs(deck, ["school", "remove", id])
    list = try #require(try data(deck, "school")["preferences"] as? [[String: Any]])
    #expect(list.compactMap { $0["type"] as? String } == ["division"])
    #expect(
      try prefs(deck, ["school", "move", "1", "5"], status: 64).stderr.contains("to: 5 is out of range; allowed 1–1"))
    #expect(
      try prefs(deck, ["school", "add", "max_distance_miles", "20"], status: 64).stderr.contains(
        "max_distance_miles: 20 is out of range; allowed 50–3000"))
    #expect(try prefs(deck, ["set", "school", "x=1"], status: 64).stderr.contains("school preferences are a list"))
  }

  @Test("geocoding fills the coordinates and says so; a ZIP in another state is refused; no token goes to the geocoder")
  func geocodingFillsCoordinates() throws {
    let (server, deck) = try signedIn()
    defer { withExtendedLifetime(server) {} }
    let set = try prefs(
      deck,
      [
        "location", "set", "--address", "77 Massachusetts Ave", "--city", "Cambridge", "--state", "ma", "--zip",
        "02139", "--geocode", "--trace=body",
      ])
    #expect(set.stderr.contains("Coordinates ready"))
    let location = try data(deck, "location")
    #expect(location["state"] as? String == "MA")
    #expect(abs((location["latitude"] as? Double ?? 0) - 42.3647) < 0.001)
    #expect(abs((location["longitude"] as? Double ?? 0) + 71.1042) < 0.001)
    #expect(try prefs(deck, ["get", "location"]).stdout.contains("✓ Coordinates ready"))

    // The trace shows each request's headers: the recruiting service gets the token, the geocoder none.
    let lines = set.stderr.split(separator: "\n").map(String.init)
    func headers(of marker: String) -> [String] {
      guard let start = lines.firstIndex(where: { $0.hasPrefix("> GET") && $0.contains(marker) }) else { return [] }
      return Array(lines[(start + 1)...].prefix { $0.hasPrefix("> ") })
    }
    #expect(!headers(of: "/geocoder/locations/onelineaddress").isEmpty, "\(set.stderr)")
    #expect(!headers(of: "/geocoder/").contains { $0.lowercased().hasPrefix("> authorization") })
    #expect(headers(of: "/api/user/preferences/location").contains { $0.lowercased().hasPrefix("> authorization") })

    let mismatch = try prefs(deck, ["location", "set", "--state", "NY", "--geocode"], status: 64)
    #expect(mismatch.stderr.contains("ZIP code 02139 is in MA, not NY"))
    let missing = try prefs(deck, ["location", "set", "--zip", "00000", "--geocode"], status: 1)
    #expect(missing.stderr.contains("found no match"))
    #expect(try data(deck, "location")["zip"] as? String == "02139", "nothing was saved")
    #expect(
      try prefs(deck, ["location", "set", "--zip", "0213"], status: 64).stderr.contains(
        "zip: \"0213\" is not a ZIP code"))
  }

  @Test("dashboard toggles round-trip, with Select/Deselect All and the empty-state warning")
  func dashboardRoundTrip() throws {
    let (server, deck) = try signedIn()
    defer { withExtendedLifetime(server) {} }
    let hidden = try prefs(deck, ["dashboard", "hide", "quickTasks", "social-media", "School Map"])
    #expect(hidden.stdout.contains("✗ quickTasks"))
    var dashboard = try data(deck, "dashboard")
    #expect((dashboard["widgets"] as? [String: Bool])?["quickTasks"] == false)
    #expect((dashboard["widgets"] as? [String: Bool])?["schoolMapWidget"] == false)
    #expect((dashboard["statsCards"] as? [String: Bool])?["socialMedia"] == false)
    #expect(try prefs(deck, ["get", "dashboard"]).stdout.contains("Dashboard Widgets (15 of 17 shown)"))
    _ = try prefs(deck, ["dashboard", "show", "quickTasks"])
    dashboard = try data(deck, "dashboard")
    #expect((dashboard["widgets"] as? [String: Bool])?["quickTasks"] == true)
    let none = try prefs(deck, ["dashboard", "hide", "--all", "widgets", "--all", "statsCards"])
    #expect(none.stderr.contains("the dashboard will show its empty state"))
    _ = try prefs(deck, ["dashboard", "show", "--all", "widgets"])
    dashboard = try data(deck, "dashboard")
    #expect((dashboard["widgets"] as? [String: Bool])?.values.allSatisfy { $0 } == true)
    #expect((dashboard["statsCards"] as? [String: Bool])?.values.allSatisfy { !$0 } == true)
    #expect(try prefs(deck, ["dashboard", "hide", "quickTask"], status: 64).stderr.contains("did you mean quickTasks"))
  }

  // MARK: Export, import, edit

  @Test("export and import copy a profile; an invalid document sends nothing")
  func exportImport() throws {
    let (server, deck) = try signedIn()
    _ = try prefs(deck, ["set", "player", "gpa=3.7", "positions=C"])
    _ = try prefs(deck, ["school", "template", "close-to-home"])
    _ = try prefs(deck, ["dashboard", "hide", "quickTasks"])
    let exported = try prefs(deck, ["export"]).stdout
    let document = try #require(try json(exported) as? [String: Any])
    #expect(document["version"] as? Int == 1)
    #expect(
      Set((document["categories"] as? [String: Any])?.keys.map { $0 } ?? []) == [
        "player", "school", "notifications", "dashboard", "location",
      ])
    let file = deck.home + "/profile.json"
    try exported.write(toFile: file, atomically: true, encoding: .utf8)

    let other = try DeckCLI(server: server)
    let signup = try other.run(
      ["auth", "signup", "--email", "copy@example.com", "--role", "athlete", "--password-stdin"], stdin: "pw-123456")
    #expect(signup.status == 0, "\(signup.stderr)")
    let imported = try prefs(other, ["import", file])
    #expect(imported.stdout.contains("player: 2 changes"))
    #expect(try data(other, "player")["gpa"] as? Double == 3.7)
    #expect(((try data(other, "dashboard"))["widgets"] as? [String: Bool])?["quickTasks"] == false)
    #expect(try data(other, "school")["templateUsed"] as? String == "Close to Home")

    let broken = exported.replacingOccurrences(of: "3.7", with: "7.3").replacingOccurrences(
      of: "\"positions\"", with: "\"position\"")
    let third = try DeckCLI(server: server)
    #expect(
      try third.run(["auth", "signup", "--email", "third@example.com", "--password-stdin"], stdin: "pw-123456").status
        == 0)
    let refused = try third.run(["prefs", "import", "-"], stdin: broken)
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("player: gpa: 7.3 is out of range; allowed 0.0–5.0"))
    #expect(
      refused.stderr.contains("player: position: unknown player field; did you mean primaryPosition or positions?"))
    let untouched = try inspect(third, "third@example.com")
    #expect(
      (untouched["categories"] as? [[String: Any]])?.allSatisfy { $0["data"] is NSNull } == true, "nothing was sent")
  }

  @Test("edit: an unchanged file sends nothing, an empty file cancels, a valid edit is saved")
  func editWithoutTerminal() throws {
    let (server, deck) = try signedIn()
    defer { withExtendedLifetime(server) {} }
    let unchanged = try deck.run(["prefs", "edit", "location"], environment: ["EDITOR": "true"])
    #expect(unchanged.status == 0, "\(unchanged.stderr)")
    #expect(unchanged.stderr.contains("Edit cancelled: the file is unchanged; nothing was sent."))
    let empty = try EditorScript.write(in: deck.home, ["EMPTY"])
    let cancelled = try deck.run(["prefs", "edit", "location"], environment: ["VISUAL": empty])
    #expect(cancelled.stderr.contains("Edit cancelled: the file is empty; nothing was sent."))
    #expect(stored(try inspect(deck), "location")?["data"] is NSNull)

    let directory = deck.home + "/school-editor"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    _ = try prefs(deck, ["school", "template", "academic-excellence"])
    // Swap the first two items (type and value lines move together) by deleting the first item's lines.
    let script = try EditorScript.write(in: directory, ["/^  - type: min_academic_rating/,/^    id:/d"])
    let edited = try deck.run(["prefs", "edit", "school"], environment: ["EDITOR": script])
    #expect(edited.status == 0, "\(edited.stderr)")
    let seen = try String(contentsOfFile: directory + "/seen-1.yaml", encoding: .utf8)
    #expect(seen.contains("# Editing the school preferences of athlete@sandbox.test"))
    #expect(seen.contains("  - type: school_size"))
    let list = try #require(try data(deck, "school")["preferences"] as? [[String: Any]])
    #expect(list.compactMap { $0["type"] as? String } == ["school_size", "division"])
    #expect(list.compactMap { $0["priority"] as? Int } == [1, 2])
    #expect(try deck.run(["prefs", "edit", "school"], environment: ["EDITOR": "false"]).status == 1)
  }
}

/// An EDITOR for tests: a shell script that saves a copy of the file it was given
/// (`seen-N.yaml`), notes whether it had a terminal (`terminal-N`), then changes the file with
/// the N-th `sed` expression (or empties it for `EMPTY`).
enum EditorScript {
  static func write(in directory: String, _ edits: [String]) throws -> String {
    let script = directory + "/editor.sh"
    let cases = edits.enumerated().map { index, edit in
      edit == "EMPTY" ? "  \(index + 1)) : > \"$1\" ;;" : "  \(index + 1)) sed -i '\(edit)' \"$1\" ;;"
    }.joined(separator: "\n")
    try """
    #!/bin/sh
    n=$(cat "\(directory)/count" 2>/dev/null || echo 0)
    n=$((n + 1))
    echo $n > "\(directory)/count"
    cp "$1" "\(directory)/seen-$n.yaml"
    if [ -t 0 ] && [ -t 1 ]; then echo terminal > "\(directory)/terminal-$n"; fi
    case $n in
    \(cases)
    esac
    """.write(toFile: script, atomically: true, encoding: .utf8)
    chmod(script, 0o755)
    return script
  }
}
