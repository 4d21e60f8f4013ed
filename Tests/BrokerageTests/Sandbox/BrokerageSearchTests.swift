import Foundation
import SQLKit
import SandboxApp
import TestSupport
import Testing

@testable import BrokerageServer
@testable import SandboxKit

@Suite struct BrokerageSearchTests {
  static let names = [
    "Lakeside Realty",  // no match
    "Skypark Homes",  // substring
    "Blue Park Realty",  // word prefix
    "Parkside Realty",  // prefix
    "Park Homes",  // prefix, shorter
    "Park",  // exact
    "Central Parkway Properties",  // word prefix, longer
    "Spark Realty",  // substring
    "Park Park Realty",  // prefix and word prefix: listed once
  ]

  @Test func ranksExactThenPrefixThenWordPrefixThenSubstring() async throws {
    let results = try await withEmptyDatabase { database in
      try await insertBrokerages(Self.names, into: database)
      return try await searchNames(database, "park")
    }
    #expect(
      results == [
        "Park",
        "Park Homes", "Parkside Realty", "Park Park Realty",
        "Blue Park Realty", "Central Parkway Properties",
        "Spark Realty", "Skypark Homes",
      ])
  }

  @Test func trimsAndIgnoresCase() async throws {
    try await withEmptyDatabase { database in
      try await insertBrokerages(Self.names, into: database)
      let plain = try await searchNames(database, "park")
      #expect(try await searchNames(database, "  PARK \n") == plain)
      #expect(try await searchNames(database, "pArK") == plain)
      #expect(try await searchNames(database, "BLUE park") == ["Blue Park Realty"])
    }
  }

  @Test func multiWordWordPrefix() async throws {
    try await withEmptyDatabase { database in
      try await insertBrokerages(
        ["Keller Williams Capital Partners", "Capital Realty", "RE/MAX Alliance"], into: database)
      #expect(try await searchNames(database, "capital part") == ["Keller Williams Capital Partners"])
      #expect(try await searchNames(database, "capital") == ["Capital Realty", "Keller Williams Capital Partners"])
      // "RE/MAX": MAX is a word of its own.
      #expect(try await searchNames(database, "max") == ["RE/MAX Alliance"])
    }
  }

  @Test func shortQueriesAndSpecialCharacters() async throws {
    try await withEmptyDatabase { database in
      try await insertBrokerages(
        ["Engel & Völkers", "RE/MAX", "Sotheby's International Realty", "100% Realty"], into: database)
      #expect(try await searchNames(database, "x") == ["RE/MAX"])
      #expect(try await searchNames(database, "öl") == ["Engel & Völkers"])
      #expect(try await searchNames(database, "& v") == ["Engel & Völkers"])
      #expect(try await searchNames(database, "y's") == ["Sotheby's International Realty"])
      #expect(try await searchNames(database, "%") == ["100% Realty"])
      #expect(try await searchNames(database, "\"") == [])
      #expect(try await searchNames(database, "a\"b\"") == [])
      #expect(try await searchNames(database, "_") == [])
    }
  }

  @Test func limitCutsAcrossTiers() async throws {
    try await withEmptyDatabase { database in
      try await insertBrokerages(Self.names, into: database)
      #expect(try await searchNames(database, "park", limit: 1) == ["Park"])
      #expect(try await searchNames(database, "park", limit: 3) == ["Park", "Park Homes", "Parkside Realty"])
      #expect(try await searchNames(database, "park", limit: 50).count == 8)
    }
  }

  @Test func validation() async throws {
    #expect(throws: BrokerageSearch.InvalidRequest.missingQuery) {
      try BrokerageSearch.validate(query: "  ", limit: nil)
    }
    #expect(throws: BrokerageSearch.InvalidRequest.missingQuery) { try BrokerageSearch.validate(query: nil, limit: 5) }
    #expect(throws: BrokerageSearch.InvalidRequest.limitOutOfRange) {
      try BrokerageSearch.validate(query: "a", limit: 0)
    }
    #expect(throws: BrokerageSearch.InvalidRequest.limitOutOfRange) {
      try BrokerageSearch.validate(query: "a", limit: 51)
    }
    #expect(try BrokerageSearch.validate(query: " Re/Max ", limit: nil) == ("re/max", 15))
    #expect(try BrokerageSearch.validate(query: "a", limit: 1).limit == 1)
    #expect(try BrokerageSearch.validate(query: "a", limit: 50).limit == 50)
    #expect(BrokerageSearch.InvalidRequest.missingQuery.message == "q is required")
    #expect(BrokerageSearch.InvalidRequest.limitOutOfRange.message == "limit must be between 1 and 50")
  }

  @Test(.enabled(if: !TestDatabase.isPostgreSQL, "SQLite's query plans"))
  func prefixTiersUseIndexes() async throws {
    try await withEmptyDatabase { database in
      try await database.write { db in
        try await SandboxSeed.seedDefaults(db, features: SandboxRegistry.features)
        try await SyntheticBrokerages.add(db, 20_000)
      }
      let upper = "summit\u{10FFFF}"
      let (plans, substring, walks) = try await database.read { db in
        (
          [
            try await plan(db, BrokerageSearch.exactSQL, ["summit", 15]),
            try await plan(db, BrokerageSearch.prefixSQL, ["summit", upper, 15]),
            try await plan(db, BrokerageSearch.wordPrefixSQL, ["summit", upper, 15]),
            try await plan(db, BrokerageSearch.prefixByLengthSQL, [6, 60, "summit", upper, 15]),
            try await plan(db, BrokerageSearch.wordCountsByLengthSQL, [7, 60, "summit", upper, 201]),
          ],
          try await plan(db, BrokerageSearch.substringSQL, [BrokerageSearch.ftsPhrase("ridge"), 15]),
          [
            try await plan(db, BrokerageSearch.wordPrefixWalkOfLengthSQL, [20, "summit", upper, 15]),
            try await plan(db, BrokerageSearch.substringWalkSQL, ["ridge", 0, 0, "", "", 15]),
            try await plan(db, BrokerageSearch.shortSubstringSQL, ["r", 15]),
          ]
        )
      }
      for plan in plans {
        #expect(plan.contains("USING INDEX") || plan.contains("USING COVERING INDEX"), "\(plan)")
        #expect(!plan.contains("SCAN brokerages"), "\(plan)")
        #expect(!plan.contains("SCAN brokerage_words"), "\(plan)")
      }
      #expect(plans[1].contains("SEARCH brokerages USING INDEX brokerages_name"))
      #expect(plans[2].contains("SEARCH brokerage_words USING INDEX brokerage_words_word"))
      #expect(
        plans[3].contains("SEARCH b USING COVERING INDEX brokerages_rank (<expr>=? AND name>? AND name<?)"))
      #expect(!plans[3].contains("TEMP B-TREE"), "\(plans[3])")
      #expect(plans[4].contains("SEARCH brokerage_words USING COVERING INDEX brokerage_words_length"))
      #expect(substring.contains("VIRTUAL TABLE INDEX"), "\(substring)")
      // Walks read the rank order as it is stored: no sorting, so they stop at the limit.
      for walk in walks {
        #expect(walk.contains("brokerages USING COVERING INDEX brokerages_rank"), "\(walk)")
        #expect(!walk.contains("TEMP B-TREE"), "\(walk)")
      }
      // Newer SQLite (3.54) runs the EXISTS as a semi-join ("SEARCH brokerage_words EXISTS
      // USING ..."); older versions (Debian 12's 3.40) as a correlated subquery. Either way, an
      // index search per row.
      #expect(
        walks[0].contains("SEARCH brokerage_words USING COVERING INDEX brokerage_words_owner")
          || walks[0].contains("SEARCH brokerage_words EXISTS USING COVERING INDEX brokerage_words_owner"),
        "\(walks[0])")
      // And the results are still right at that size.
      let results = try await searchNames(database, "keller williams realty", limit: 3)
      #expect(results.first == "Keller Williams Realty")
    }
  }

  /// The ranked walks return exactly what sorting every match returned before them (the
  /// reference below), for short and long prefixes over a large synthetic set, at every limit.
  @Test(.timeLimit(.minutes(5)), .enabled(if: !TestDatabase.isPostgreSQL, "a SQLite reference"))
  func rankedWalksMatchSortingEveryMatch() async throws {
    try await withEmptyDatabase { database in
      try await database.write { db in
        try await SandboxSeed.seedDefaults(db, features: SandboxRegistry.features)
        try await SyntheticBrokerages.add(db, 20_000)
        let writer = BrokerageWriter(db)
        // Many substring matches of "éla", one of them only through the trigram index's case folding.
        for index in 0..<250 { try await writer.insert(name: "Bélair Homes \(index)") }
        try await writer.insert(name: "BÉLAIR Realty")
        try await writer.insert(name: "Keller")
      }
      var queries = (UnicodeScalar("a").value...UnicodeScalar("z").value).map { String(UnicodeScalar($0)!) }
      queries += [
        "0", "1", "&", "/", "'", "ke", "co", "re", "su", "ri", "ho", "gr", "as", "zz", "xq", "él", "éla", "bél",
      ]
      queries += ["kel", "keller", "keller w", "re/max", "summit", "summit r", "realty", "realty a", "ridge", "park"]
      queries += ["ealt", "idge", "omes", "real estate g", "group 1", "homes 19", "1999", "ÉLA".lowercased(), "lair"]
      for query in queries {
        for limit in [1, 15, 50] {
          let (expected, actual) = try await database.read { db in
            (
              try await ReferenceSearch.search(db, query: query, limit: limit),
              try await BrokerageSearch.search(db, query: query, limit: limit)
            )
          }
          #expect(actual == expected, "q=\(query) limit=\(limit)")
        }
      }
      // The case the index folds and lower() does not is found, and ranked first (shortest).
      #expect(try await searchNames(database, "éla", limit: 1) == ["BÉLAIR Realty"])
    }
  }

  /// PostgreSQL's tiers (its own statements and indexes) rank exactly as SQLite's, which the
  /// tests above pin down: the same data on both engines, the same answers.
  @Test(.timeLimit(.minutes(5)), .enabled(if: TestDatabase.isPostgreSQL, "compares PostgreSQL with SQLite"))
  func postgreSQLRanksAsSQLiteDoes() async throws {
    let directory = try ScratchDirectory()
    defer { directory.cleanUp() }
    let sqlite = try await SandboxDatabase.open(
      path: directory.path("reference.sqlite"), features: SandboxRegistry.features)
    try await withEmptyDatabase { postgres in
      for database in [sqlite, postgres] {
        try await database.write { db in
          try await SandboxSeed.seedDefaults(db, features: SandboxRegistry.features)
          try await SyntheticBrokerages.add(db, 5_000)
          try await BrokerageWriter(db).insert(names: ["Keller", "100% Realty", "A_B Homes", #"Back\slash Realty"#])
        }
      }
      var queries = (UnicodeScalar("a").value...UnicodeScalar("z").value).map { String(UnicodeScalar($0)!) }
      queries += ["0", "1", "&", "/", "'", "%", "_", "\\", "ke", "co", "re", "su", "zz", "kel", "keller w", "re/max"]
      queries += [
        "summit r", "realty a", "ealt", "idge", "omes", "real estate g", "group 1", "homes 19", "100%", "a_b",
      ]
      for query in queries {
        for limit in [1, 15, 50] {
          let expected = try await searchNames(sqlite, query, limit: limit)
          #expect(try await searchNames(postgres, query, limit: limit) == expected, "q=\(query) limit=\(limit)")
        }
      }
    }
    await sqlite.close()
  }

  private func plan(_ db: any SQLDatabase, _ sql: String, _ binds: [any Encodable & Sendable]) async throws -> String {
    try await db.fetchAll("EXPLAIN QUERY PLAN " + sql, binds)
      .map { try $0["detail"] as String }
      .joined(separator: "\n")
  }
}

@Suite struct BrokerageWordsTests {
  @Test func laterWordTails() {
    #expect(BrokerageWords.laterWordTails(of: "RE/MAX Alliance").map(\.tail) == ["MAX Alliance", "Alliance"])
    #expect(BrokerageWords.laterWordTails(of: "Sotheby's Realty").map(\.tail) == ["Realty"])
    #expect(BrokerageWords.laterWordTails(of: "Engel & Völkers").map(\.tail) == ["Völkers"])
    #expect(BrokerageWords.laterWordTails(of: "Compass").isEmpty)
    #expect(BrokerageWords.laterWordTails(of: "Century 21").map(\.position) == [1])
  }
}

/// The search as it was before the ranked walks: every tier sorts all its matches. The
/// reference for ``BrokerageSearchTests/rankedWalksMatchSortingEveryMatch()``.
enum ReferenceSearch {
  static func search(_ db: any SQLDatabase, query: String, limit: Int) async throws -> [BrokerageSearch.Match] {
    var results: [BrokerageSearch.Match] = []
    var seen: Set<String> = []
    let upper = query + "\u{10FFFF}"

    func run(_ sql: String, _ binds: [any Encodable & Sendable]) async throws {
      let remaining = limit - results.count
      guard remaining > 0 else { return }
      let rows = try await db.fetchAll(sql, binds + [remaining + seen.count])
      for row in rows where results.count < limit {
        let match = BrokerageSearch.Match(id: try row[0], name: try row[1])
        if seen.insert(match.id).inserted { results.append(match) }
      }
    }

    try await run("SELECT id, name FROM brokerages WHERE name = ? ORDER BY name, id LIMIT ?", [query])
    try await run(
      "SELECT id, name FROM brokerages WHERE name >= ? AND name < ? ORDER BY length(name), name, id LIMIT ?",
      [query, upper])
    try await run(
      """
      SELECT id, name FROM brokerages
      WHERE id IN (SELECT brokerage_id FROM brokerage_words WHERE word >= ? AND word < ?)
      ORDER BY length(name), name, id LIMIT ?
      """, [query, upper])
    if query.unicodeScalars.count >= 3 {
      try await run(
        """
        SELECT b.id, b.name FROM brokerage_trigrams t JOIN brokerages b ON b.rowid = t.rowid
        WHERE brokerage_trigrams MATCH ? ORDER BY length(b.name), b.name, b.id LIMIT ?
        """, [BrokerageSearch.ftsPhrase(query)])
    } else {
      try await run(
        "SELECT id, name FROM brokerages WHERE instr(lower(name), ?) > 0 ORDER BY length(name), name, id LIMIT ?",
        [query])
    }
    return results
  }
}
