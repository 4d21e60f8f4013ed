import Foundation
import PrefsRules
import TestSupport
import Testing

@testable import PrefsModule

/// In-process: what deck refuses before anything is sent, and what it says; completion and help.
@Suite("deck prefs: every problem at once, completion and help, in-process", .serialized, .timeLimit(.minutes(2)))
struct PrefsProblemsAndHelpCommandTests {
  let deck: InProcessDeck

  init() async throws { deck = try await InProcessDeck() }

  @Test("set names every problem of its input at once")
  func setNamesEveryProblem() async {
    let result = await deck.run([
      "prefs", "set", "notifications", "followUpReminderDays=999", "enableDeadlineAlerts=maybe",
    ])
    #expect(result.status == 64)
    #expect(result.stderr.contains("followUpReminderDays: 999 is out of range; allowed 1–90"))
    #expect(result.stderr.contains(#"enableDeadlineAlerts: "maybe" is not true or false"#))
  }

  @Test("set caps a long list of problems at 20, then says how many more")
  func setCapsTheList() async {
    let assignments = (1...25).map { "nope\($0)=1" }
    let result = await deck.run(["prefs", "set", "player"] + assignments)
    #expect(result.status == 64)
    #expect(result.stderr.contains("nope20: unknown player field"))
    #expect(!result.stderr.contains("nope21: unknown"))
    #expect(result.stderr.contains("and 5 more"))
  }

  @Test("an edited file names a value that does not read and one out of range in the same round")
  func editNamesEveryProblem() {
    let refused = PrefsEditDocument.parse(
      "followUpReminderDays: 999\nenableDeadlineAlerts: maybe\n", as: .notifications)
    guard case .failure(let validation) = refused else {
      Issue.record("accepted")
      return
    }
    #expect(validation.messages.contains("followUpReminderDays: 999 is out of range; allowed 1–90"))
    #expect(validation.messages.contains(#"enableDeadlineAlerts: "maybe" is not true or false"#))
  }

  @Test("a reopened edit file lists at most 20 problems")
  func editHeaderIsCapped() {
    let problems = (1...30).map { "field\($0): bad" }
    let text = PrefsEditDocument.render(
      .notifications(NotificationSettings()), owner: "a@b.co", environment: "sandbox", problems: problems)
    #expect(text.contains("#   field20: bad"))
    #expect(!text.contains("#   field21: bad"))
    #expect(text.contains("#   and 10 more"))
  }

  @Test("completion offers only the positions of the sport named on the line")
  func positionCompletion() {
    let words = ["deck", "prefs", "set", "player", "primarySport=Soccer"]
    #expect(
      PrefsCompletion.assignments(words: words, prefix: "primaryPosition=")
        == [
          "primaryPosition=Goalkeeper", "primaryPosition=Defender", "primaryPosition=Midfielder",
          "primaryPosition=Forward",
        ])
    #expect(
      PrefsCompletion.assignments(words: words, prefix: "positions=Goalkeeper,d") == ["positions=Goalkeeper,Defender"])
    let baseball = ["deck", "prefs", "set", "player", "sport=baseball"]
    #expect(
      !PrefsCompletion.assignments(words: baseball, prefix: "primaryPosition=").contains("primaryPosition=Goalie"))
    #expect(PrefsCompletion.assignments(words: baseball, prefix: "primaryPosition=Sh") == ["primaryPosition=Shortstop"])
    #expect(PrefsCompletion.assignments(words: baseball, prefix: "primarySport=Soc") == ["primarySport=Soccer"])
  }

  @Test("set --help lists every key of every category with its type and range, within 80 columns")
  func setHelpListsKeys() async {
    let help = await deck.run(["prefs", "set", "--help"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("followUpReminderDays (integer): 1–90"))
    #expect(help.stdout.contains("gpa (number): 0.0–5.0"))
    #expect(help.stdout.contains("bats (string): L, R or S"))
    #expect(help.stdout.contains("heightInches (integer): 48–95 inches"))
    for category in PrefsCategory.allCases where category.acceptsAssignments {
      #expect(help.stdout.contains("\n\(category.rawValue):\n"), "\(category)")
      for spec in category.fields {
        #expect(help.stdout.contains(spec.key), "\(category).\(spec.key)")
      }
    }
    // The discussion (the global options' line is the core's).
    for line in help.stdout.split(separator: "\n").prefix(while: { !$0.hasPrefix("USAGE:") }) {
      #expect(line.count <= 80, "\(line)")
    }
  }

  @Test("school --help lists the types from the catalog, wrapped under each item")
  func schoolHelpWraps() async {
    let help = await deck.run(["prefs", "school", "--help"])
    #expect(help.status == 0)
    for type in SchoolPreferenceType.allCases { #expect(help.stdout.contains(type.rawValue)) }
    #expect(help.stdout.contains("\n  conference_type (a list, each): Power 4, Group of 5, Mid-Major"))
    #expect(help.stdout.contains("\n      Small Conference\n"), "a long item continues under itself")
    for line in help.stdout.split(separator: "\n").prefix(while: { !$0.hasPrefix("USAGE:") }) {
      #expect(line.count <= 80, "\(line)")
    }
  }

  @Test("dashboard help keeps the page's Select All and Deselect All")
  func dashboardHelp() async {
    for verb in ["show", "hide"] {
      let help = await deck.run(["prefs", "dashboard", verb, "--help"])
      #expect(help.stdout.contains("Select All"))
      #expect(help.stdout.contains("Deselect All"))
    }
  }
}
