import Foundation
import TestSupport
import Testing

/// Issue 46, item 1, as the QA run met it: the built deck and deck-sandbox, not raw HTTP. After
/// one player save, many school and location saves (one deck process each, and in one `deck run`
/// script whose lines share a kept connection with player saves) never say that the fit scores
/// are being recalculated, their answers do not carry the flag at all, and only the player saves
/// move the sandbox's recalculation count. The cause was the optimizer: release builds of
/// deck-sandbox (Swift 6.3.1, -O) dropped the envelope's nil flag and answered whatever byte
/// the buffer held. CI builds debug binaries only, where it never showed: run this suite against
/// release binaries with DECK_BINARY=.build/release/deck (`scripts/test-package` runs the QA
/// suite, whose `prefs-5.edge.3` checks the same, against the installed packages).
@Suite("deck says the fit scores are recalculated after player saves only", .endToEndTimeLimit)
struct FitScoreFlagEndToEndTests {
  static let rounds = 12

  /// What one save showed: `deck … --json`'s `fitScoreRecalculated`, whether stderr speaks of
  /// fit scores, and whether an answer of the sandbox (`--trace=body`) carried the flag at all.
  struct Shown: Equatable {
    var flag: Bool?
    var said: Bool
    var answered: Bool

    /// A save of another page: no flag, no word of it, nothing in the answer.
    static let nothing = Shown(flag: false, said: false, answered: false)
  }

  func flag(_ deck: DeckCLI, _ arguments: [String]) throws -> Shown {
    let result = try deck.run(arguments + ["--json", "--trace=body"])
    #expect(result.status == 0, "deck \(arguments.joined(separator: " ")): \(result.stderr)")
    let object = try json(result.stdout) as? [String: Any]
    return Shown(
      flag: object?["fitScoreRecalculated"] as? Bool, said: result.stderr.contains("fit scores"),
      answered: result.stderr.contains("\"fitScoreRecalculated\""))
  }

  func recalculations(_ deck: DeckCLI, _ email: String) throws -> Int? {
    let result = try deck.run(["sandbox", "inspect", "prefs", email, "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    return (try json(result.stdout) as? [String: Any])?["fitScoreRecalculations"] as? Int
  }

  @Test("school and location saves, one process each and in a script beside player saves, never carry the flag")
  func onlyPlayerSavesSaySo() async throws {
    try await offThePool {
      let server = try SandboxProcess()
      let deck = try DeckCLI(server: server)
      defer { withExtendedLifetime(server) {} }
      let email = "fit-score-flag@sandbox.test"
      try deck.signUp(email)
      let player = try flag(deck, ["prefs", "set", "player", "sport=Baseball", "positions=SS,2B", "gpa=3.8"])
      #expect(player.flag == true)
      #expect(player.answered, "the player save's answer carries the flag")
      for round in 1...Self.rounds {
        let school = try flag(deck, ["prefs", "school", "add", "division", "D1"])
        #expect(school == .nothing, "school save \(round)")
        let location = try flag(deck, ["prefs", "location", "set", "--city", "Boston \(round)"])
        #expect(location == .nothing, "location save \(round)")
      }
      #expect(try recalculations(deck, email) == 1)

      // One process: each player save line is followed by a school and a location save on the
      // same connection pool.
      var lines: [String] = []
      for round in 1...Self.rounds {
        lines.append("prefs set player gpa=\(String(format: "%.1f", 3.0 + Double(round % 10) / 10)) --json")
        lines.append("prefs school add division D2 --json")
        lines.append("prefs location set --city \"Austin \(round)\" --json")
      }
      let script = deck.home + "/saves.deck"
      try lines.joined(separator: "\n").appending("\n").write(toFile: script, atomically: true, encoding: .utf8)
      let run = try deck.run(["run", script])
      #expect(run.status == 0, "\(run.stderr)")
      let answers = try run.stdout.split(separator: "\n").compactMap {
        try json(String($0)) as? [String: Any]
      }
      #expect(answers.count == lines.count, "\(run.stdout)")
      var players = 0
      for (line, answer) in zip(lines, answers) {
        let isPlayer = line.hasPrefix("prefs set player")
        let changed = !((answer["changes"] as? [Any]) ?? []).isEmpty
        if isPlayer && changed { players += 1 }
        #expect(answer["fitScoreRecalculated"] as? Bool == (isPlayer && changed), "\(line): \(answer)")
      }
      #expect(try recalculations(deck, email) == 1 + players)
    }
  }
}
