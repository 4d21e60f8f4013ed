import Foundation
package import SQLKit
import SandboxKit

/// The brokerage directory's part of the sandbox: the `brokerages` table and its search
/// indexes, the canonical brokerages every sandbox starts with, synthetic ones for
/// benchmarks, and the typeahead route (the BrokerageAPI contract).
package enum BrokerageServer: SandboxFeature {
  package static let name = "brokerage"

  package static func registerMigrations(in migrations: inout SchemaMigrations) {
    migrations.add(
      "v1-brokerages",
      script: """
        CREATE TABLE brokerages (
          id TEXT PRIMARY KEY NOT NULL,
          name TEXT NOT NULL COLLATE NOCASE
        );
        CREATE INDEX brokerages_name ON brokerages(name);
        -- One row per later word (position > 0) of each name. `word` holds the name from that
        -- word to its end, so that a multi-word query ("capital part") is still a prefix search.
        -- Maintained by BrokerageWriter (no foreign key, so that a reset can truncate quickly).
        CREATE TABLE brokerage_words (
          word TEXT NOT NULL COLLATE NOCASE,
          brokerage_id TEXT NOT NULL,
          position INTEGER NOT NULL
        );
        CREATE INDEX brokerage_words_word ON brokerage_words(word);
        -- Indexed substring search; rowid = brokerages.rowid.
        CREATE VIRTUAL TABLE brokerage_trigrams USING fts5(name, tokenize = 'trigram');
        """,
      postgres: """
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
        CREATE TABLE brokerages (
          rowid BIGINT GENERATED ALWAYS AS IDENTITY,
          id TEXT PRIMARY KEY NOT NULL,
          name TEXT NOT NULL
        );
        -- Exact and prefix matches (LIKE 'q%'), in any collation.
        CREATE INDEX brokerages_name ON brokerages(lower(name) text_pattern_ops);
        CREATE TABLE brokerage_words (
          rowid BIGINT GENERATED ALWAYS AS IDENTITY,
          word TEXT NOT NULL,
          brokerage_id TEXT NOT NULL,
          position BIGINT NOT NULL
        );
        CREATE INDEX brokerage_words_word ON brokerage_words(lower(word) text_pattern_ops);
        -- Substring matches (LIKE '%q%'): pg_trgm, in place of SQLite's FTS5 trigram table.
        CREATE INDEX brokerage_trigrams ON brokerages USING gin (lower(name) gin_trgm_ops);
        """)
    // Search reads every tier in rank order (see BrokerageSearch).
    migrations.add(
      "v2-brokerage-rank",
      script: """
        -- The rank order: shorter names first, then by name (case-insensitive), then id.
        CREATE INDEX brokerages_rank ON brokerages(length(name), name, id);
        -- The length of the whole name each word tail belongs to, to search one length at a time.
        ALTER TABLE brokerage_words ADD COLUMN name_length INTEGER NOT NULL DEFAULT 0;
        UPDATE brokerage_words SET name_length = (SELECT length(name) FROM brokerages WHERE id = brokerage_id);
        CREATE INDEX brokerage_words_length ON brokerage_words(name_length, word);
        CREATE INDEX brokerage_words_owner ON brokerage_words(brokerage_id, word);
        """,
      postgres: """
        CREATE INDEX brokerages_rank ON brokerages(length(name), lower(name) COLLATE "C", id);
        ALTER TABLE brokerage_words ADD COLUMN name_length BIGINT NOT NULL DEFAULT 0;
        CREATE INDEX brokerage_words_owner ON brokerage_words(brokerage_id);
        """)
  }

  /// The canonical brokerages (stable ids from their names).
  package static func seed(_ db: any SQLDatabase, sandbox: SeedContext) async throws {
    try await BrokerageWriter(db).insert(names: CanonicalBrokerages.names)
  }

  package static func registerRoutes(on routes: SandboxRoutes) throws {
    try BrokerageHandlers(state: routes.state).registerHandlers(
      on: routes.transport, serverURL: SandboxRoutes.root, configuration: SandboxRoutes.configuration,
      middlewares: [ErrorResponseMiddleware(requestError: BrokerageHandlers.requestError)])
    // The typeahead asks the same prefixes again and again; its answer is the directory's.
    routes.cacheResponses(ofGET: "/api/brokerages/search")
  }

  package static func counts(_ db: any SQLDatabase) async throws -> [String: Int] {
    ["brokerages": try await db.fetchValue(Int.self, "SELECT count(*) FROM brokerages") ?? 0]
  }

  package static var syntheticData: [String: SyntheticData] {
    ["brokerages": SyntheticBrokerages.add]
  }
}

/// Plausible, unique and deterministic synthetic brokerage names ("Summit Ridge Realty Group 1234").
enum SyntheticBrokerages {
  private static let first = [
    "Summit", "Cedar", "Harbor", "Maple", "Willow", "Granite", "Aspen", "Birch", "Canyon", "Meadow",
    "Valley", "Highland", "Coastal", "Prairie", "Golden", "Silver", "Blue Sky", "Pine", "River", "Lake",
    "Liberty", "Heritage", "Legacy", "Pioneer", "Frontier", "Keystone", "Cornerstone", "Landmark", "Crown",
    "Sterling", "Beacon", "Horizon", "Sunrise", "Evergreen", "Magnolia", "Dogwood", "Cypress", "Sequoia",
    "Redwood", "Cardinal", "Falcon", "Eagle", "Lighthouse", "Harvest", "Orchard", "Bayside", "Northstar",
    "Westfield", "Eastgate", "Southern", "Northern", "Pacific", "Atlantic", "Copper", "Iron Horse",
    "Stonebridge", "Oakmont", "Fairview", "Brookside", "Lakeview", "Riverbend", "Hillcrest", "Timber",
    "Bluewater",
  ]
  private static let second = [
    "Ridge", "Creek", "Park", "Point", "Hills", "Grove", "Crossing", "Station", "Square", "Landing",
    "Springs", "Heights", "Shores", "Trail", "Gate", "View", "Woods", "Field", "Haven", "Peak", "Bay",
    "Valley", "Commons", "Harbor", "Mill", "Bridge", "Pointe", "Meadows", "Pines", "Oaks", "Glen", "Bluff",
  ]
  private static let kinds = [
    "Realty", "Real Estate", "Realty Group", "Properties", "Homes", "Realtors", "Real Estate Group",
    "Property Group", "Realty Partners", "Home Team", "Brokerage", "Estates", "Realty Associates",
    "Real Estate Services", "Residential", "Land & Homes",
  ]

  /// The synthetic name number `index` (0-based). The trailing office number makes names unique.
  static func name(at index: Int) -> String {
    var mixed = UInt64(truncatingIfNeeded: index) &+ 0x9E37_79B9_7F4A_7C15
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    mixed ^= mixed >> 31
    let a = first[Int(mixed % UInt64(first.count))]
    let b = second[Int((mixed / 64) % UInt64(second.count))]
    let c = kinds[Int((mixed / 4096) % UInt64(kinds.count))]
    return "\(a) \(b) \(c) \(index + 1)"
  }
}

extension SyntheticBrokerages {
  /// The meta key of how many synthetic brokerages were generated so far.
  static let countKey = "synthetic_brokerages"

  /// Generates `count` more synthetic brokerages, continuing the deterministic sequence.
  @Sendable static func add(_ db: any SQLDatabase, _ count: Int) async throws {
    guard count > 0 else { return }
    let start = try await SandboxMeta.int(db, countKey) ?? 0
    try await BrokerageWriter(db).insert(names: (start..<(start + count)).lazy.map(name(at:)))
    try await SandboxMeta.set(db, countKey, String(start + count))
  }
}
