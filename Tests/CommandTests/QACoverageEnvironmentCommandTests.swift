import Foundation
import TestSupport
import Testing

/// `deck qa coverage --env E`: which rows can be checked in E, by the rule `qa run` skips by
/// (a scenario tagged sandbox needs a sandbox; one tagged writes is refused in production
/// without --allow-writes), and the counts per environment.
@Suite("qa coverage --env in-process", .serialized, .timeLimit(.minutes(2)))
struct QACoverageEnvironmentCommandTests {
  let deck: InProcessDeck

  init() async throws { deck = try await InProcessDeck() }

  /// The shipped scenarios' ids and tags, as `qa list --json` gives them.
  func shipped() async throws -> [String: Set<String>] {
    let list = await deck.run(["qa", "list", "--json"])
    #expect(list.status == 0, "\(list.stderr)")
    let scenarios = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
    var tags: [String: Set<String>] = [:]
    for scenario in scenarios {
      tags[try #require(scenario["id"] as? String)] = Set(try #require(scenario["tags"] as? [String]))
    }
    return tags
  }

  func rows(_ arguments: [String]) async throws -> (rows: [[String: Any]], stderr: String) {
    let coverage = await deck.run(["qa", "coverage", "--json"] + arguments)
    #expect(coverage.status == 0, "\(coverage.stderr)")
    let rows = try #require(try JSONSerialization.jsonObject(with: Data(coverage.stdout.utf8)) as? [[String: Any]])
    return (rows, coverage.stderr)
  }

  /// What keeps a scenario with `tags` out of `environment`, as docs/QA.md states the rule.
  static func blocker(_ tags: Set<String>, environment: String, allowWrites: Bool) -> String? {
    if environment != "local" && tags.contains("sandbox") { return "sandbox" }
    if environment == "production" && !allowWrites && tags.contains("writes") { return "writes" }
    return nil
  }

  @Test(
    "each environment's rows are runnable by its scenarios that qa run runs there",
    arguments: [("local", false), ("staging", false), ("production", false), ("production", true)])
  func runnablePerEnvironment(environment: String, allowWrites: Bool) async throws {
    let blocker = { (tags: Set<String>) in Self.blocker(tags, environment: environment, allowWrites: allowWrites) }
    let tags = try await shipped()
    let (rows, stderr) = try await rows(["--env", environment] + (allowWrites ? ["--allow-writes"] : []))
    var coveredRows = 0
    var runnableRows = 0
    for row in rows {
      let scenarios = try #require(row["scenarios"] as? [String])
      guard !scenarios.isEmpty else {
        #expect(row["runnable"] is NSNull || row["runnable"] == nil, "\(row)")
        continue
      }
      let running = scenarios.filter { blocker(tags[$0] ?? []) == nil }
      let blockers = Set(scenarios.compactMap { blocker(tags[$0] ?? []) })
      #expect(row["runnable"] as? Bool == !running.isEmpty, "\(row)")
      #expect(row["runnableScenarios"] as? [String] == running, "\(row)")
      #expect(Set(row["blockedBy"] as? [String] ?? ["?"]) == blockers, "\(row)")
      coveredRows += 1
      if !running.isEmpty { runnableRows += 1 }
    }
    let runningScenarios = tags.values.filter { blocker($0) == nil }.count
    let expected =
      "All modules, in \(environment): \(runnableRows) of \(coveredRows) covered rows runnable, by \(runningScenarios) of \(tags.count) scenarios"
    #expect(stderr.contains(expected), "\(stderr)")
    if environment == "staging" {
      #expect(
        stderr.contains(
          "not runnable: \(tags.values.filter { $0.contains("sandbox") }.count) need the sandbox's operator endpoints"))
      // At least the rows docs/QA.md counts for staging: a scenario that needs the sandbox no
      // more is not tagged so again.
      #expect(runnableRows >= 27, "\(stderr)")
    }
  }

  @Test("without --env the rows are as before; --allow-writes needs --env; the table shows RUNNABLE")
  func withoutEnvAndTheTable() async throws {
    let (rows, stderr) = try await rows([])
    #expect(rows.allSatisfy { $0["runnable"] == nil && $0["runnableScenarios"] == nil && $0["blockedBy"] == nil })
    #expect(!stderr.contains("runnable"), "\(stderr)")
    let alone = await deck.run(["qa", "coverage", "--allow-writes"])
    #expect(alone.status == 64, "\(alone.stderr)")
    #expect(alone.stderr.contains("--allow-writes goes with --env"), "\(alone.stderr)")
    let table = await deck.run(["qa", "coverage", "kiosk", "--env", "staging"])
    #expect(table.status == 0, "\(table.stderr)")
    #expect(table.stdout.contains("RUNNABLE"), "\(table.stdout)")
    #expect(table.stdout.contains("no: sandbox"), "\(table.stdout)")
    #expect(table.stdout.contains(" yes "), "\(table.stdout)")
    #expect(table.stderr.contains("kiosk (kiosk-review-flow.md):"), "\(table.stderr)")
    #expect(!table.stderr.contains("All modules"), "\(table.stderr)")
    let unknown = await deck.run(["qa", "coverage", "--env", "nowhere"])
    #expect(unknown.status != 0, "\(unknown.stderr)")
  }
}
