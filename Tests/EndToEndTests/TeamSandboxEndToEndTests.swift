import Foundation
import SQLKit
import SandboxApp
import TestSupport
import Testing

@testable import SandboxKit

/// A team sandbox: two `deck sandbox serve` instances on one PostgreSQL database (a private
/// cluster, scripts/pg-cluster), driven by the real deck as a QA team's laptops would.
@Suite(.serialized, .endToEndTimeLimit) struct TeamSandboxEndToEndTests {
  /// A new database on the test cluster, and two servers on it.
  static func twoInstances(_ name: String) throws -> (String, SandboxProcess, SandboxProcess) {
    let database = TestDatabase.database(named: "team_\(name)_\(UInt32.random(in: 0...UInt32.max))")
    let first = try SandboxProcess(database: database)
    let second = try SandboxProcess(database: database)
    #expect(first.adminToken == second.adminToken, "one database, one admin token")
    return (database, first, second)
  }

  /// Runs SQL against the shared database from the test (what no operator endpoint exposes).
  static func withDatabase<T: Sendable>(
    _ url: String, _ body: @Sendable (any SQLDatabase) async throws -> T
  ) async throws -> T {
    let database = try await SandboxDatabase.open(DatabaseLocation.parse(url), features: SandboxRegistry.features)
    do {
      let result = try await database.write(body)
      await database.close()
      return result
    } catch {
      await database.close()
      throw error
    }
  }

  /// 8 scripted kiosks, 4 through each instance, while purchases arrive through the first:
  /// every purchase is walked to POSTED_INTENT by exactly one kiosk, and none is lost.
  @Test func kiosksSplitAcrossTwoInstancesLoseNothingAndDoNothingTwice() async throws {
    let (database, first, second) = try Self.twoInstances("kiosk")
    let stores = (0..<8).map { "store_team_\($0)" }
    try await Self.withDatabase(database) { db in
      for store in stores {
        try await db.execute(
          "INSERT INTO kiosk_stores (public_id, name, review_url, created_at) VALUES (?, ?, ?, ?)",
          [store, "Team \(store)", "https://example.com/review/\(store)", "2026-01-01T00:00:00Z"])
      }
    }
    let perKiosk = 4
    let (viaFirst, viaSecond) = (try DeckCLI(server: first), try DeckCLI(server: second))
    let script = (0..<perKiosk).flatMap { _ in stores.map { "sandbox trigger purchase --store \($0) --json" } }
    let feeder = try DeckCLI.start(
      DeckCLI.binary, ["run", "-"], stdin: script.joined(separator: "\n") + "\n", environment: viaFirst.environment,
      in: viaFirst.home)
    let kiosks = try stores.enumerated().map { index, store in
      let deck = index.isMultiple(of: 2) ? viaFirst : viaSecond
      return try DeckCLI.start(
        DeckCLI.binary,
        [
          "kiosk", "run", "--store", store, "--sessions", String(perKiosk), "--rating", "5", "--approve",
          "--poll-interval", "0.05", "--handoff-timeout", "0", "--thank-you", "0", "--json",
        ], stdin: nil, environment: deck.environment, in: deck.home)
    }
    let fed = try feeder.finish(timeout: 240)
    #expect(fed.status == 0, "\(fed.stderr)")
    let created = fed.stdout.split(separator: "\n").compactMap { line in
      (try? json(String(line)) as? [String: Any])?["publicId"] as? String
    }
    var reported: [String] = []
    for kiosk in kiosks {
      let result = try kiosk.finish(timeout: 240)
      #expect(result.status == 0, "\(result.stderr)")
      for line in result.stdout.split(separator: "\n") {
        let report = try #require(try json(String(line)) as? [String: Any])
        #expect(report["error"] == nil || report["error"] is NSNull, "\(report)")
        if let id = report["publicId"] as? String { reported.append(id) }
      }
    }
    #expect(created.count == stores.count * perKiosk)
    #expect(Set(reported) == Set(created), "every purchase reached a kiosk")
    #expect(reported.count == Set(reported).count, "no session was processed twice")
    let statuses = try await Self.withDatabase(database) { db in
      try await db.fetchAll(
        "SELECT status, count(*) AS n FROM kiosk_review_sessions WHERE store_public_id LIKE 'store_team_%' GROUP BY status"
      ).map { "\(try $0["status"] as String)=\(try $0["n"] as Int)" }
    }
    #expect(statuses == ["POSTED_INTENT=\(stores.count * perKiosk)"])
  }

  /// The database's password never shows: not in the server's command line (ps), nor in what
  /// it prints, nor in `deck sandbox status`.
  @Test func thePasswordStaysOutOfSight() throws {
    let (database, first, _) = try Self.twoInstances("secret")
    let password = try #require(URLComponents(string: database)?.password)
    let commandLine = try String(
      contentsOfFile: "/proc/\(first.child.processIdentifier)/cmdline", encoding: .utf8)
    #expect(commandLine.contains("deck-sandbox"), "the server replaced deck: \(commandLine)")
    #expect(!commandLine.contains(password), "ps shows the password: \(commandLine)")
    #expect(!(first.child.stdout + first.child.stderr).contains(password))
    let status = try DeckCLI(server: first).run(["sandbox", "status"])
    #expect(status.status == 0, "\(status.stderr)")
    #expect(status.all.contains("postgres://deck@"), "\(status.all)")
    #expect(!status.all.contains(password))
  }

  /// One invite, accepted at the same moment through both instances: one acceptance wins, the
  /// other is told the invite was used, and the workspace has the member once.
  @Test func anInviteAcceptedThroughBothInstancesAtOnceIsAcceptedOnce() throws {
    let (_, first, second) = try Self.twoInstances("invite")
    let owner = try DeckCLI(server: first)
    try owner.signUp("boss@example.com")
    #expect(try owner.onboard(["--invite", "carol@example.com"], useCase: nil).status == 0)
    let link = try #require(try owner.joinLinks(to: "carol@example.com").first)
    let (carolFirst, carolSecond) = (try DeckCLI(server: first), try DeckCLI(server: second))
    try carolFirst.signUp("carol@example.com")
    try carolSecond.logIn("carol@example.com")
    let racers = try [carolFirst, carolSecond].map { deck in
      try DeckCLI.start(
        DeckCLI.binary, ["workspace", "invite", "accept", link, "--json"], stdin: nil, environment: deck.environment,
        in: deck.home)
    }
    let results = try racers.map { try $0.finish() }
    #expect(results.filter { $0.status == 0 }.count == 1, "\(results.map(\.all))")
    #expect(results.filter { $0.status == 65 && $0.stderr.contains("already been used") }.count == 1)
    let members = try #require(try owner.inspect("boss@example.com")["members"] as? [[String: Any]])
    #expect(members.map { $0["role"] as? String } == ["owner", "member"])
  }

  /// Killed mid-load (SIGKILL, no goodbye), one instance leaves the other serving, and every
  /// purchase either instance acknowledged is in the database.
  @Test func killingOneInstanceMidLoadLosesNothingCommitted() async throws {
    let (database, first, second) = try Self.twoInstances("kill")
    let script =
      Array(repeating: "sandbox trigger purchase --store store_demo --json", count: 40)
      .joined(separator: "\n") + "\n"
    let load = try [first, second].map { server in
      let deck = try DeckCLI(server: server)
      return try DeckCLI.start(
        DeckCLI.binary, ["run", "--keep-going", "-"], stdin: script, environment: deck.environment, in: deck.home)
    }
    #expect(eventually(timeout: 60) { load[0].stdout.split(separator: "\n").count >= 5 })
    first.child.signal(SIGKILL)
    let results = try load.map { try $0.finish(timeout: 240) }
    let acknowledged = results.flatMap { result in
      result.stdout.split(separator: "\n").compactMap { line in
        (try? json(String(line)) as? [String: Any])?["publicId"] as? String
      }
    }
    #expect(results[1].status == 0, "the other instance kept serving: \(results[1].stderr)")
    #expect(results[0].status != 0, "the killed instance's client saw it go")
    #expect(acknowledged.count >= 45, "the survivor's 40 and the first's before it died")
    let stored = try await Self.withDatabase(database) { db in
      Set(try await db.fetchColumn(String.self, "SELECT public_id FROM kiosk_review_sessions"))
    }
    #expect(Set(acknowledged).isSubset(of: stored), "an acknowledged purchase is gone")
  }
}
