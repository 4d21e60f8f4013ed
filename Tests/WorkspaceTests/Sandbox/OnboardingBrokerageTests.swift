import SQLKit
import TestSupport
import Testing

@testable import SandboxKit
@testable import WorkspaceServer

/// The brokerage persistence rules of onboarding on the engine the tests run on
/// (`DECK_TEST_DATABASE=postgres` runs them on PostgreSQL; scripts/test runs both): a canonical
/// name typed in another case is the canonical brokerage on both engines.
@Suite struct OnboardingBrokerageTests {
  /// Resolves each input as onboarding does, on a database holding `names`; also gives the
  /// brokerages' ids by name.
  func resolved(_ inputs: [String], names: [String]) async throws -> (
    results: [String: (id: String?, name: String?)], ids: [String: String]
  ) {
    try await withEmptyDatabase { database in
      try await insertBrokerages(names, into: database)
      return try await database.write { db in
        var ids: [String: String] = [:]
        for row in try await db.fetchAll("SELECT id, name FROM brokerages") {
          ids[try row["name"] as String] = try row["id"] as String
        }
        var results: [String: (id: String?, name: String?)] = [:]
        for text in inputs {
          switch try await OnboardingBrokerage.resolve(db, brokerage: text, brokerageID: nil) {
          case .success(let resolved): results[text] = resolved
          case .failure(let message): Issue.record("\(text): \(message)")
          }
        }
        return (results, ids)
      }
    }
  }

  /// brokerage-9.5: on PostgreSQL `WHERE name = ?` was case-sensitive (SQLite's column is
  /// NOCASE), so "keller williams realty" was stored as a new brokerage_name.
  @Test func aCanonicalNameInAnotherCaseIsTheCanonicalBrokerage() async throws {
    let inputs = ["Keller Williams Realty", "keller williams realty", "KELLER  williams Realty", "Keller Williams"]
    let (results, ids) = try await resolved(
      inputs, names: ["Keller Williams Realty", "Keller Williams Realty Partners"])
    let keller = try #require(ids["Keller Williams Realty"])
    for text in inputs.prefix(3) {
      #expect(results[text]?.id == keller, "\(text)")
      #expect(results[text]?.name == nil, "\(text)")
    }
    #expect(results["Keller Williams"]?.id == nil)
    #expect(results["Keller Williams"]?.name == "Keller Williams")
  }

  /// Letters outside ASCII fold in Swift on both engines (SQLite's NOCASE folds ASCII only,
  /// PostgreSQL's lower() folds more): the same answers either way.
  @Test func otherLettersFoldTheSameOnBothEngines() async throws {
    let kelvin = "\u{212A}elvin Realty"  // KELVIN SIGN, which PostgreSQL's lower() makes a k
    let (results, ids) = try await resolved(
      ["engel & VÖLKERS", "ENGEL & völkers", "kelvin realty", "\u{212A}ELVIN REALTY"],
      names: ["Engel & Völkers", kelvin])
    let engel = try #require(ids["Engel & Völkers"])
    #expect(results["engel & VÖLKERS"]?.id == engel)
    #expect(results["ENGEL & völkers"]?.id == engel)
    // ASCII text matches ASCII names only, as NOCASE does: stored as typed on both engines.
    #expect(results["kelvin realty"]?.id == nil)
    #expect(results["kelvin realty"]?.name == "kelvin realty")
    #expect(results["\u{212A}ELVIN REALTY"]?.id == ids[kelvin])
  }
}
