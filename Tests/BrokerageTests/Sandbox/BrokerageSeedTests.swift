import Foundation
import SandboxApp
import TestSupport
import Testing

@testable import BrokerageServer
@testable import SandboxKit

/// The brokerages every sandbox starts with, their ids, and the synthetic ones for benchmarks.
@Suite struct BrokerageSeedTests {
  @Test func canonicalBrokerages() {
    let names = CanonicalBrokerages.names
    #expect(names.count >= 200)
    #expect(Set(names.map { $0.lowercased() }).count == names.count)
    for required in ["Keller Williams Realty", "RE/MAX", "Coldwell Banker", "Compass", "eXp Realty"] {
      #expect(names.contains(required))
    }
  }

  @Test func idsAreStableNameBasedUUIDs() throws {
    let id = BrokerageWriter.id("Compass")
    #expect(id == BrokerageWriter.id("Compass"))
    #expect(id != BrokerageWriter.id("compass"))
    let uuid = try #require(UUID(uuidString: id))
    #expect(uuid.uuid.6 >> 4 == 5)  // version 5
    #expect(uuid.uuid.8 >> 6 == 0b10)  // RFC variant
  }

  @Test func aResetKeepsTheCanonicalBrokeragesAndDropsSyntheticOnes() async throws {
    try await withEmptyDatabase { database in
      try await database.write { db in
        try await SandboxSeed.seedDefaults(db, features: SandboxRegistry.features)
        try await SyntheticBrokerages.add(db, 100)
      }
      try await database.write { db in try await SandboxSeed.reset(db, features: SandboxRegistry.features) }
      let (brokerages, trigrams) = try await database.read { db in
        (
          try await db.fetchValue(Int.self, "SELECT count(*) FROM brokerages"),
          // SQLite's FTS5 table; PostgreSQL's trigram index is on brokerages itself.
          db.isPostgreSQL
            ? CanonicalBrokerages.names.count
            : try await db.fetchValue(Int.self, "SELECT count(*) FROM brokerage_trigrams")
        )
      }
      #expect(brokerages == CanonicalBrokerages.names.count)
      #expect(trigrams == CanonicalBrokerages.names.count)
      #expect(try await searchNames(database, "ompas") == ["Compass", "Compass Real Estate"])
    }
  }

  @Test func aNewDatabaseHasTheCanonicalBrokerages() async throws {
    let directory = try ScratchDirectory()
    defer { directory.cleanUp() }
    let state = try await SandboxState.open(SandboxOptions(databasePath: directory.path("sandbox.sqlite")))
    let brokerages = try await state.database.read { db in
      try await db.fetchValue(Int.self, "SELECT count(*) FROM brokerages")
    }
    await state.close()
    #expect(brokerages == CanonicalBrokerages.names.count)
  }

  /// (How fast seeding is, bench/run measures: "seeding N brokerages".)
  @Test func syntheticSeedingIsUniqueAndDeterministic() async throws {
    try await withEmptyDatabase { database in
      try await database.write { db in
        try await SandboxSeed.seedDefaults(db, features: SandboxRegistry.features)
        try await SyntheticBrokerages.add(db, 20_000)
      }
      let counts = try await database.read { db in
        [
          try await db.fetchValue(Int.self, "SELECT count(*) FROM brokerages"),
          try await db.fetchValue(Int.self, "SELECT count(DISTINCT name) FROM brokerages"),
          db.isPostgreSQL
            ? try await db.fetchValue(Int.self, "SELECT count(*) FROM brokerages")
            : try await db.fetchValue(Int.self, "SELECT count(*) FROM brokerage_trigrams"),
        ]
      }
      let total = CanonicalBrokerages.names.count + 20_000
      #expect(counts == [total, total, total])
      // A second seed continues the sequence instead of repeating it.
      try await database.write { db in try await SyntheticBrokerages.add(db, 10) }
      let names = try await database.read { db in try await db.fetchColumn(String.self, "SELECT name FROM brokerages") }
      #expect(Set(names).count == CanonicalBrokerages.names.count + 20_010)
    }
    #expect(SyntheticBrokerages.name(at: 0) == SyntheticBrokerages.name(at: 0))
    #expect(SyntheticBrokerages.name(at: 1233).hasSuffix(" 1234"))
    #expect(SyntheticBrokerages.name(at: 1) != SyntheticBrokerages.name(at: 2))
  }
}
