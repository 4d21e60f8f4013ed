import Foundation
import GRDB
import Testing

@testable import DeckSandbox

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

  @Test func ranksExactThenPrefixThenWordPrefixThenSubstring() throws {
    let results = try withEmptyDatabase { pool in
      try insertBrokerages(Self.names, into: pool)
      return try searchNames(pool, "park")
    }
    #expect(
      results == [
        "Park",
        "Park Homes", "Parkside Realty", "Park Park Realty",
        "Blue Park Realty", "Central Parkway Properties",
        "Spark Realty", "Skypark Homes",
      ])
  }

  @Test func trimsAndIgnoresCase() throws {
    try withEmptyDatabase { pool in
      try insertBrokerages(Self.names, into: pool)
      let plain = try searchNames(pool, "park")
      #expect(try searchNames(pool, "  PARK \n") == plain)
      #expect(try searchNames(pool, "pArK") == plain)
      #expect(try searchNames(pool, "BLUE park") == ["Blue Park Realty"])
    }
  }

  @Test func multiWordWordPrefix() throws {
    try withEmptyDatabase { pool in
      try insertBrokerages(["Keller Williams Capital Partners", "Capital Realty", "RE/MAX Alliance"], into: pool)
      #expect(try searchNames(pool, "capital part") == ["Keller Williams Capital Partners"])
      #expect(try searchNames(pool, "capital") == ["Capital Realty", "Keller Williams Capital Partners"])
      // "RE/MAX": MAX is a word of its own.
      #expect(try searchNames(pool, "max") == ["RE/MAX Alliance"])
    }
  }

  @Test func shortQueriesAndSpecialCharacters() throws {
    try withEmptyDatabase { pool in
      try insertBrokerages(["Engel & Völkers", "RE/MAX", "Sotheby's International Realty", "100% Realty"], into: pool)
      #expect(try searchNames(pool, "x") == ["RE/MAX"])
      #expect(try searchNames(pool, "öl") == ["Engel & Völkers"])
      #expect(try searchNames(pool, "& v") == ["Engel & Völkers"])
      #expect(try searchNames(pool, "y's") == ["Sotheby's International Realty"])
      #expect(try searchNames(pool, "%") == ["100% Realty"])
      #expect(try searchNames(pool, "\"") == [])
      #expect(try searchNames(pool, "a\"b\"") == [])
      #expect(try searchNames(pool, "_") == [])
    }
  }

  @Test func limitCutsAcrossTiers() throws {
    try withEmptyDatabase { pool in
      try insertBrokerages(Self.names, into: pool)
      #expect(try searchNames(pool, "park", limit: 1) == ["Park"])
      #expect(try searchNames(pool, "park", limit: 3) == ["Park", "Park Homes", "Parkside Realty"])
      #expect(try searchNames(pool, "park", limit: 50).count == 8)
    }
  }

  @Test func validation() throws {
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

  @Test func prefixTiersUseIndexes() throws {
    try withEmptyDatabase { pool in
      try pool.write { db in
        try SandboxSeed.seedDefaults(db)
        try SandboxSeed.addSyntheticBrokerages(20_000, db)
      }
      let upper = "summit\u{10FFFF}"
      let (plans, substring) = try pool.read { db in
        (
          [
            try plan(db, BrokerageSearch.exactSQL, ["summit", 15]),
            try plan(db, BrokerageSearch.prefixSQL, ["summit", upper, 15]),
            try plan(db, BrokerageSearch.wordPrefixSQL, ["summit", upper, 15]),
          ],
          try plan(db, BrokerageSearch.substringSQL, [BrokerageSearch.ftsPhrase("ridge"), 15])
        )
      }
      for plan in plans {
        #expect(plan.contains("USING INDEX"), "\(plan)")
        #expect(!plan.contains("SCAN brokerages"), "\(plan)")
        #expect(!plan.contains("SCAN brokerage_words"), "\(plan)")
      }
      #expect(plans[1].contains("SEARCH brokerages USING INDEX brokerages_name"))
      #expect(plans[2].contains("SEARCH brokerage_words USING INDEX brokerage_words_word"))
      #expect(substring.contains("VIRTUAL TABLE INDEX"), "\(substring)")
      // And the results are still right at that size.
      let results = try searchNames(pool, "keller williams realty", limit: 3)
      #expect(results.first == "Keller Williams Realty")
    }
  }

  private func plan(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws -> String {
    try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments)
      .map { $0["detail"] as String }
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
