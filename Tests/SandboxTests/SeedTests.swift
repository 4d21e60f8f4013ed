import Foundation
import SandboxApp
import TestSupport
import Testing

@testable import BrokerageServer
@testable import SandboxKit

@Suite struct SeedTests {
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
    // RFC 9562 test vector: v5 of "www.example.com" in the DNS namespace.
    let dns = UUID(uuidString: "6ba7b810-9dad-11d1-80b4-00c04fd430c8")!
    #expect(
      NameUUID.make(namespace: dns, name: "www.example.com").uuidString.lowercased()
        == "2ed6657d-e927-568b-95e1-2665a8aea6a2")
  }

  @Test func seedsAnEmptyDatabaseOnce() async throws {
    let directory = try ScratchDirectory()
    defer { directory.cleanUp() }
    let options = SandboxOptions(databasePath: directory.path("nested/dir/sandbox.sqlite"))
    let state = try await SandboxState.open(options)
    let (brokerages, users, secret) = try await state.database.read { db in
      (
        try await db.fetchValue(Int.self, "SELECT count(*) FROM brokerages"),
        try await db.fetchValue(Int.self, "SELECT count(*) FROM users"),
        try await db.fetchValue(String.self, "SELECT value FROM meta WHERE key = 'jwt_secret'") ?? ""
      )
    }
    await state.close()
    #expect(brokerages == CanonicalBrokerages.names.count)
    #expect(users == 3, "the demo owner, athlete@sandbox.test and parent@sandbox.test")
    #expect(secret.count == 64)
    // The SQLite file's directories are the user's alone.
    for path in [directory.path("nested"), directory.path("nested/dir")] where !TestDatabase.isPostgreSQL {
      let attributes = try FileManager.default.attributesOfItem(atPath: path)
      #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    }

    // Opening again keeps everything, including the secret.
    let again = try await SandboxState.open(options)
    let secretAgain = try await again.database.read { db in
      try await db.fetchValue(String.self, "SELECT value FROM meta WHERE key = 'jwt_secret'")
    }
    await again.close()
    #expect(secretAgain == secret)
  }

  @Test func resetDropsDataAndSessionsButKeepsTheSecret() async throws {
    try await withEmptyDatabase { database in
      try await database.write { db in
        try await SandboxSeed.seedDefaults(db, features: SandboxRegistry.features)
        try await SyntheticBrokerages.add(db, 100)
        try await UserRecord(id: "u1", email: "a@b.co", passwordHash: "x", createdAt: "now").insert(db)
        try await db.execute(
          "INSERT INTO auth_sessions (id, user_id, created_at, signed_in_at) VALUES ('s1', 'u1', 'now', 0)")
      }
      let before = try await database.read { db in
        try await db.fetchValue(String.self, "SELECT value FROM meta WHERE key = 'jwt_secret'")
      }
      try await database.write { db in try await SandboxSeed.reset(db, features: SandboxRegistry.features) }
      let (brokerages, emails, secret, trigrams) = try await database.read { db in
        (
          try await db.fetchValue(Int.self, "SELECT count(*) FROM brokerages"),
          try await db.fetchColumn(String.self, "SELECT email FROM users"),
          try await db.fetchValue(String.self, "SELECT value FROM meta WHERE key = 'jwt_secret'"),
          // SQLite's FTS5 table; PostgreSQL's trigram index is on brokerages itself.
          db.isPostgreSQL
            ? CanonicalBrokerages.names.count
            : try await db.fetchValue(Int.self, "SELECT count(*) FROM brokerage_trigrams")
        )
      }
      #expect(brokerages == CanonicalBrokerages.names.count)
      #expect(emails.sorted() == ["athlete@sandbox.test", SandboxSeed.demoEmail, "parent@sandbox.test"])
      // The same secret keeps the anon key valid; the sessions (and so every token) are gone.
      #expect(secret != nil && secret == before)
      let sessions = try await database.read { try await $0.fetchValue(Int.self, "SELECT count(*) FROM auth_sessions") }
      #expect(sessions == 0)
      #expect(trigrams == CanonicalBrokerages.names.count)
      #expect(try await searchNames(database, "ompas") == ["Compass", "Compass Real Estate"])
    }
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
