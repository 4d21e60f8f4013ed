import Foundation
import TestSupport
import Testing

/// One JSON key convention (issue 45, item 7): every object deck builds has camelCase keys, as
/// gh's and kubectl's do. The sweep walks the command tree (`CommandTree`, from the registry):
/// every command is either run read-only with `--json` against a served sandbox, or named with
/// the reason it is not, so a new command fails here until it is one or the other. The objects
/// deck passes through exactly as a backend's contract defines them (README, "JSON keys") and
/// the maps whose keys are data are the allow-list below.
@Suite("Every command's --json keys", .endToEndTimeLimit)
struct JSONKeysEndToEndTests {
  /// Who runs a command: the seeded athlete (preferences, MBTI, kiosk) or a new workspace owner.
  enum Account { case athlete, owner }

  /// How a command of the tree is checked.
  enum Check {
    /// Read-only runs: its arguments after the command's words (`--json` is added).
    case run(Account, [[String]])
    /// Not run, and why.
    case skip(String)
  }

  static let writes = "changes state"

  /// Every command of the tree, by its words after `deck`.
  static let checks: [String: Check] = [
    "api": .skip("prints the service's own answer: its keys are the backend's"),
    "auth login": .skip(writes), "auth logout": .skip(writes), "auth signup": .skip(writes),
    "auth switch": .skip(writes), "auth status": .run(.athlete, [[]]),
    "auth token": .skip("prints the access token itself"),
    "brokerage search": .run(.athlete, [["keller"]]),
    "completion": .skip("prints a shell script"),
    "contract check": .run(.athlete, [["--service", "nudge"]]),
    "contract fixtures": .skip("writes files"), "contract list": .run(.athlete, [[]]),
    "doctor": .run(.athlete, [[]]),
    "env add": .skip(writes), "env remove": .skip(writes), "env set": .skip(writes), "env use": .skip(writes),
    "env list": .run(.athlete, [[]]), "env show": .run(.athlete, [[]]),
    "kiosk approve": .skip(writes), "kiosk cancel": .skip(writes), "kiosk decline": .skip(writes),
    "kiosk done": .skip(writes), "kiosk next": .skip(writes), "kiosk pair": .skip(writes),
    "kiosk rate": .skip(writes), "kiosk unpair": .skip(writes), "kiosk run": .skip("runs the kiosk (full screen)"),
    "kiosk status": .run(.athlete, [[]]),
    "mbti events": .run(.athlete, [[]]), "mbti questions": .run(.athlete, [[]]),
    "mbti quiz": .skip("full screen"), "mbti submit": .skip(writes), "mbti result": .run(.athlete, [[]]),
    "mbti user-id": .run(.athlete, [[]]),
    "plugins": .run(.athlete, [[]]),
    "prefs dashboard hide": .skip(writes), "prefs dashboard show": .skip(writes), "prefs delete": .skip(writes),
    "prefs edit": .skip("opens an editor"), "prefs import": .skip(writes), "prefs location set": .skip(writes),
    "prefs photo get": .skip("downloads an image"), "prefs photo remove": .skip(writes),
    "prefs photo set": .skip(writes), "prefs reset": .skip(writes), "prefs school add": .skip(writes),
    "prefs school move": .skip(writes), "prefs school remove": .skip(writes), "prefs school template": .skip(writes),
    "prefs set": .skip(writes),
    "prefs export": .run(.athlete, [[]]), "prefs history": .run(.athlete, [["notifications"]]),
    "prefs get": .run(.athlete, [["player"], ["notifications"], ["dashboard"], ["location"], ["school"]]),
    "prefs school list": .run(.athlete, [[]]),
    "qa coverage": .run(.athlete, [[]]), "qa list": .run(.athlete, [[]]), "qa run": .skip("runs scenarios"),
    "qa show": .run(.athlete, [["prefs-5.edge.3"]]), "qa export": .skip("writes files"),
    "repl": .skip("interactive"), "run": .skip("runs a script"),
    "sandbox delay": .run(.athlete, [[]]), "sandbox fault add": .skip(writes), "sandbox fault clear": .skip(writes),
    "sandbox fault list": .run(.athlete, [[]]),
    "sandbox inspect events": .run(.athlete, [[]]),
    "sandbox inspect prefs": .run(.athlete, [["athlete@sandbox.test"]]),
    "sandbox inspect session": .skip("needs a review session; its rows are the backend's (allow-listed)"),
    "sandbox inspect store": .run(.athlete, [["store_demo"]]),
    "sandbox inspect workspace": .run(.owner, [["boss@example.com"]]),
    "sandbox outbox": .run(.owner, [[]]),
    "sandbox logs": .skip(
      "JSON Lines, one document per request: RequestLogTests and SandboxLogsEndToEndTests read its keys"),
    "sandbox reset": .skip(writes), "sandbox seed": .skip(writes), "sandbox serve": .skip("runs a server"),
    "sandbox stop": .skip(writes), "sandbox status": .run(.athlete, [[]]),
    "sandbox trigger invite-expiry": .skip(writes), "sandbox trigger purchase": .skip(writes),
    "sandbox trigger subscription": .skip(writes), "sandbox trigger store": .skip(writes),
    "workspace access": .run(.owner, [[]]), "workspace route": .run(.owner, [[]]),
    "workspace invite validate": .run(.owner, [["$LINK"]]),
    "workspace invite accept": .skip(writes), "workspace onboard": .skip(writes),
    "workspace subscribe": .skip(writes),
  ]

  /// Where keys are not deck's to name, by command: `.` is the document, `[]` any element of
  /// a list. Objects passed through as a backend's contract (or the spec's tables) define
  /// them, and maps whose keys are data (counts by label, scores by letter, details by name).
  static let allowed: [String: Set<String>] = [
    "sandbox inspect events": ["[]"],
    "sandbox inspect prefs": ["."],
    "sandbox inspect store": ["."],
    "sandbox inspect workspace": ["."],
    "sandbox status": [".counts"],
    "mbti events": ["[].details"],
    "mbti result": [".scores"],
    "prefs get": [".data"],
    "prefs export": [".categories"],
  ]

  /// The keys of `value` that are not camelCase, as paths, outside the `allowed` paths.
  static func offending(_ value: Any, at path: String = ".", allowed: Set<String>) -> [String] {
    if allowed.contains(path) { return [] }
    if let list = value as? [Any] {
      let element = path == "." ? "[]" : path + "[]"
      return list.flatMap { offending($0, at: element, allowed: allowed) }
    }
    guard let object = value as? [String: Any] else { return [] }
    return object.keys.sorted().flatMap { key -> [String] in
      let child = path == "." ? "." + key : path + "." + key
      let own = key.wholeMatch(of: /[a-z][a-zA-Z0-9]*/) == nil ? [child] : []
      return own + offending(object[key] as Any, at: child, allowed: allowed)
    }
  }

  @Test("every command of the tree is run or named with its reason")
  func everyCommandIsClassified() {
    let tree = Set(CommandTree.leaves.map { $0.joined(separator: " ") })
    #expect(tree.subtracting(Self.checks.keys).sorted() == [], "commands to classify in JSONKeysEndToEndTests")
    #expect(Set(Self.checks.keys).subtracting(tree).sorted() == [], "no longer in the tree")
  }

  @Test("the objects deck builds have camelCase keys")
  func keysAreCamelCase() throws {
    let server = try SandboxProcess()
    let athlete = try DeckCLI(server: server)
    #expect(
      try athlete.run(["auth", "login", "--email", "athlete@sandbox.test", "--password-stdin"], stdin: "sandbox\n")
        .status == 0)
    // Something to show: an MBTI result and a waiting event, a saved preference, an invite.
    let answers = "[5,1,1,1,5,1,5,5,5,5,1,5,1,1,5,5,1,5,5,1,5,1,1,1]\n"
    #expect(try athlete.run(["mbti", "submit", "--answers", "-"], stdin: answers).status == 0)
    #expect(try athlete.run(["prefs", "set", "notifications", "followUpReminderDays=9"]).status == 0)
    let owner = try DeckCLI(server: server)
    try owner.signUp("boss@example.com")
    #expect(try owner.onboard(["--invite", "bob@example.com"], useCase: "team").status == 0)
    let link = try #require(try owner.joinLinks(to: "bob@example.com").first)

    var problems: [String] = []
    for words in CommandTree.leaves {
      let name = words.joined(separator: " ")
      guard case .run(let account, let runs) = Self.checks[name] else { continue }
      let deck = account == .athlete ? athlete : owner
      for arguments in runs {
        let line = words + arguments.map { $0 == "$LINK" ? link : $0 } + ["--json"]
        let result = try deck.run(line)
        guard result.status == 0, let value = try? json(result.stdout) else {
          problems.append("deck \(line.joined(separator: " ")): exit \(result.status), \(result.stderr)")
          continue
        }
        for key in Self.offending(value, allowed: Self.allowed[name] ?? []) {
          problems.append("deck \(line.joined(separator: " ")): \(key)")
        }
      }
    }
    #expect(problems == [], "\(problems.joined(separator: "\n"))")
  }

  @Test("the check finds snake_case and skips what is allowed")
  func checkItself() {
    let value: [String: Any] = [
      "joinLink": "x", "sent_at": "y", "counts": ["kiosk stores": 1], "items": [["user_id": "u"]],
    ]
    #expect(Self.offending(value, allowed: [".counts"]) == [".items[].user_id", ".sent_at"])
    #expect(Self.offending([["a_b": 1]], allowed: ["[]"]) == [])
  }
}
