import Foundation
import TestSupport
import Testing

/// Issue 49: scenarios a team keeps (`qa show`, `qa export`, directories, `--data`), coverage
/// of its own files and a run's results, the failure block's checked output, and the coverage
/// table on a real terminal.
@Suite("deck qa files", .endToEndTimeLimit)
struct QAFilesEndToEndTests {
  static func write(_ text: String, to path: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }

  /// `qa export` writes every shipped file, refuses to overwrite without --force (writing
  /// nothing), and `qa list DIR` reads them back as the shipped scenarios, named by their
  /// exported paths; `qa show` prints one, which runs as a file of its own.
  @Test func exportShowAndListTheShippedFiles() throws {
    let deck = try DeckCLI()
    let directory = deck.home + "/qa"
    let exported = try deck.run(["qa", "export", directory, "--json"])
    #expect(exported.status == 0, "\(exported.all)")
    let paths = try #require(try json(exported.stdout) as? [String])
    #expect(paths.contains(directory + "/prefs/school.yaml") && paths.contains(directory + "/prefs/rows.yaml"))
    for path in paths { #expect(FileManager.default.fileExists(atPath: path), "\(path)") }

    try Self.write("# mine\n", to: directory + "/prefs/school.yaml")
    let again = try deck.run(["qa", "export", directory])
    #expect(again.status == 1)
    #expect(
      again.stderr.contains("is there already; nothing was written") && again.stderr.contains("--force"),
      "\(again.stderr)")
    #expect(try String(contentsOfFile: directory + "/prefs/school.yaml", encoding: .utf8) == "# mine\n")
    #expect(try deck.run(["qa", "export", directory, "--force"]).status == 0)
    #expect(try String(contentsOfFile: directory + "/prefs/school.yaml", encoding: .utf8) != "# mine\n")

    let shipped = try #require(try json(try deck.run(["qa", "list", "--json"]).stdout) as? [[String: Any]])
    let listed = try #require(try json(try deck.run(["qa", "list", directory, "--json"]).stdout) as? [[String: Any]])
    #expect(Set(listed.compactMap { $0["id"] as? String }) == Set(shipped.compactMap { $0["id"] as? String }))
    #expect(listed.count == shipped.count)
    #expect(listed.allSatisfy { ($0["file"] as? String)?.hasPrefix(directory + "/") == true })
    #expect(shipped.allSatisfy { ($0["file"] as? String)?.contains("Sources") == false })

    let shown = try deck.run(["qa", "show", "prefs-5.edge.3"])
    #expect(shown.status == 0)
    #expect(shown.stdout.contains("module: prefs\nscenarios:\n") && shown.stdout.contains("id: prefs-5.edge.3"))
    try Self.write(shown.stdout, to: deck.home + "/one.yaml")
    let one = try #require(
      try json(try deck.run(["qa", "list", deck.home + "/one.yaml", "--json"]).stdout) as? [[String: Any]])
    #expect(one.map { $0["id"] as? String } == ["prefs-5.edge.3"])
    let unknown = try deck.run(["qa", "show", "prefs-99.nothing"])
    #expect(unknown.status == 64 && unknown.stderr.contains("deck qa list"), "\(unknown.all)")
  }

  static let suite = """
    module: brokerage
    scenarios:
      - id: checkout-search
        title: A search finds ${name}
        tags: [readonly]
        steps:
          - run: brokerage search ${name} --json
            expect:
              jq: [{expr: '.[0].name | test("${name}"; "i")', equals: true}]
      - id: checkout-wrong
        title: Expects a brokerage that is not there
        tags: [readonly]
        steps:
          - run: brokerage search keller --json
            expect:
              jq: [{expr: '.[0].name', equals: Nobody Realty}]
    """

  /// A directory and a data file: each scenario once per row; a failure names the user's file
  /// and shows the output its jq read; coverage counts the user's rows and joins the results.
  @Test func aTeamsDirectoryRunsPerDataRowAndJoinsCoverage() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let directory = deck.home + "/team"
    try Self.write(Self.suite, to: directory + "/brokerage/checkout.yaml")
    try Self.write(
      """
      module: brokerage
      spec: team.md
      rows:
        - {id: checkout-search, text: Search finds a brokerage}
        - {id: checkout-wrong, text: A wrong expectation fails}
        - {id: checkout-later, text: Not written yet, not-applicable: later}
      """, to: directory + "/brokerage/rows.yaml")
    try Self.write("name\nkeller\ncompass\n", to: deck.home + "/names.csv")
    let report = deck.home + "/run.json"
    let run = try deck.run([
      "qa", "run", directory, "--data", deck.home + "/names.csv", "--report", "json", "--out", report,
    ])
    #expect(run.status == 1, "\(run.all)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
    let scenarios = object["scenarios"] as? [[String: Any]] ?? []
    #expect(
      scenarios.map { $0["id"] as? String }
        == ["checkout-search.row1", "checkout-search.row2", "checkout-wrong.row1", "checkout-wrong.row2"])
    #expect(scenarios.map { $0["status"] as? String } == ["passed", "passed", "failed", "failed"])
    let wrong = scenarios[2]
    #expect(wrong["file"] as? String == directory + "/brokerage/checkout.yaml")
    let step = (wrong["steps"] as? [[String: Any]])?.first
    #expect((step?["checked"] as? String)?.contains("Keller") == true, "\(step ?? [:])")
    #expect(
      (wrong["rerun"] as? String)?.contains("--data \(deck.home)/names.csv --id checkout-wrong.row1") == true,
      "\(wrong)")

    let coverage = try deck.run(["qa", "coverage", directory, "--results", report, "--json"])
    #expect(coverage.status == 1, "\(coverage.all)")
    let rows = try #require(try json(coverage.stdout) as? [[String: Any]])
    #expect(rows.map { $0["row"] as? String } == ["checkout-search", "checkout-wrong", "checkout-later"])
    #expect(rows.map { $0["result"] as? String } == ["passed", "failed", nil])
    #expect(coverage.stderr.contains("failed in \(report): checkout-wrong"), "\(coverage.stderr)")
    _ = server
  }

  /// On a real terminal of 80 and of 120 columns, no line of `qa coverage` is wider.
  @Test(arguments: [80, 120]) func coverageFitsTheTerminal(columns: Int) throws {
    let deck = try DeckCLI()
    let terminal = try PseudoTerminal(deck: deck, ["qa", "coverage"], columns: UInt16(columns), rows: 50)
    try terminal.expect("workspace (")
    try terminal.expect("% of the applicable rows", timeout: 60)
    #expect(try terminal.waitForExit(timeout: 60) == 0)
    let lines = terminal.screen.replacingOccurrences(of: "\r", with: "").split(separator: "\n")
    #expect(lines.count > 150)
    for line in lines { #expect(line.count <= columns, "\(line.count): \(line)") }
  }
}
