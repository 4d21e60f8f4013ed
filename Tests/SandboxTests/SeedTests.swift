import Foundation
import SandboxApp
import TestSupport
import Testing

@testable import SandboxKit

/// The core's seed and reset: the JWT secret, the demo users, the database's directories. What
/// a feature's seed adds is that feature's tests' (Tests/<Feature>Tests).
@Suite struct SeedTests {
  /// RFC 9562's test vector: the name-based UUIDs features give their seeded rows.
  @Test func nameBasedUUIDsFollowRFC9562() {
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
    let (users, secret) = try await state.database.read { db in
      (
        try await db.fetchValue(Int.self, "SELECT count(*) FROM users"),
        try await db.fetchValue(String.self, "SELECT value FROM meta WHERE key = 'jwt_secret'") ?? ""
      )
    }
    await state.close()
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
        try await UserRecord(id: "u1", email: "a@b.co", passwordHash: "x", createdAt: "now").insert(db)
        try await db.execute(
          "INSERT INTO auth_sessions (id, user_id, created_at, signed_in_at) VALUES ('s1', 'u1', 'now', 0)")
      }
      let before = try await database.read { db in
        try await db.fetchValue(String.self, "SELECT value FROM meta WHERE key = 'jwt_secret'")
      }
      try await database.write { db in try await SandboxSeed.reset(db, features: SandboxRegistry.features) }
      let (emails, secret) = try await database.read { db in
        (
          try await db.fetchColumn(String.self, "SELECT email FROM users"),
          try await db.fetchValue(String.self, "SELECT value FROM meta WHERE key = 'jwt_secret'")
        )
      }
      #expect(emails.sorted() == ["athlete@sandbox.test", SandboxSeed.demoEmail, "parent@sandbox.test"])
      // The same secret keeps the anon key valid; the sessions (and so every token) are gone.
      #expect(secret != nil && secret == before)
      let sessions = try await database.read { try await $0.fetchValue(Int.self, "SELECT count(*) FROM auth_sessions") }
      #expect(sessions == 0)
    }
  }
}
