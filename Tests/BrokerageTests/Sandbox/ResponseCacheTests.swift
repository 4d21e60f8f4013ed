import Foundation
import Hummingbird
import SandboxApp
import TestSupport
import Testing

@testable import SandboxKit

/// The sandbox's cache of read-only answers (the brokerage typeahead): it answers again only
/// while nothing was committed to the database, by this server or by any other process.
@Suite(.serialized, .timeLimit(.minutes(2))) struct ResponseCacheTests {
  @Test func stampChangesWithEveryCommitByAnyConnection() async throws {
    let directory = try ScratchDirectory()
    defer { directory.cleanUp() }
    let path = directory.path("sandbox.sqlite")
    #expect(DatabaseChangeStamp(databasePath: path) == nil, "no database, no stamp")
    let database = try await SandboxDatabase.open(path: path, features: SandboxRegistry.features)
    let stamps = try #require(DatabaseChangeStamp(databasePath: path))
    let opened = try #require(stamps.current())
    _ = try await database.read { try await $0.fetchValue(Int.self, "SELECT count(*) FROM brokerages") }
    #expect(stamps.current() == opened, "a read commits nothing")

    // Other connections, as another deck process on the same file would have.
    let other = try await SandboxDatabase.open(path: path, features: SandboxRegistry.features)
    try await insertBrokerages(["Zephyr Ridge Realty"], into: other)
    await other.close()
    let afterOther = try #require(stamps.current())
    #expect(afterOther != opened)
    try await database.write { try await SandboxMeta.set($0, "probe", "1") }
    let afterOwn = try #require(stamps.current())
    #expect(afterOwn != afterOther)
    try await database.write { try await SandboxMeta.set($0, "probe", "2") }
    #expect(stamps.current() != afterOwn, "every commit, not only the first after a look")
    await database.close()
  }

  @Test func theCacheStaysWithinItsBounds() {
    let cache = ResponseCache(stamp: { nil })
    let stamp = DatabaseChangeStamp.Stamp(words: [1, 2, 3, 4, 5, 6])
    #expect(cache.response(for: "first", stamp: stamp) == nil, "a new stamp: empty")
    let answer = ByteBuffer(repeating: 0x61, count: 60 * 1024)
    for index in 0..<(ResponseCache.maximumBytes / answer.readableBytes + 5) {
      cache.store(status: .ok, headers: [:], body: answer, key: "q=\(index)", stamp: stamp)
      #expect(cache.bytes <= ResponseCache.maximumBytes)
    }
    #expect(cache.count >= 1)
    #expect(cache.count <= ResponseCache.maximumEntries)
    // Too large to keep; and nothing is kept under another stamp than the cache's.
    let before = cache.count
    cache.store(
      status: .ok, headers: [:], body: ByteBuffer(repeating: 0x61, count: ResponseCache.maximumBodyBytes + 1),
      key: "large", stamp: stamp)
    cache.store(
      status: .ok, headers: [:], body: answer, key: "other",
      stamp: DatabaseChangeStamp.Stamp(words: [9, 9, 9, 9, 9, 9]))
    #expect(cache.count == before)
    #expect(cache.response(for: "q=0", stamp: DatabaseChangeStamp.Stamp(words: [7, 7, 7, 7, 7, 7])) == nil)
    #expect(cache.count == 0 && cache.bytes == 0, "another stamp empties it")
  }

  @Test func searchAnswersAreCachedUntilAnythingIsCommitted() async throws {
    let server = try await EmbeddedSandbox.start(features: SandboxRegistry.features)
    defer { Task { await server.stop() } }
    let cache = server.sandbox.responseCache
    let search = server.base + "/api/brokerages/search?q=zephyr"

    let first = try await EmbeddedSandbox.curl([search])
    #expect(first.status == 200)
    #expect(Self.names(first) == [])
    #expect(cache.count == 1)
    let again = try await EmbeddedSandbox.curl([search])
    #expect(again.status == 200)
    #expect(again.body == first.body)
    #expect(again.headers.lowercased().contains("content-type: application/json"))
    #expect(cache.count == 1, "answered from the cache")

    // A write by another connection to the same database (another deck process on the SQLite
    // file, another instance on PostgreSQL): the next answer sees it.
    let before = server.sandbox.responseCache.stamp()
    let other = try await Self.openOther(server)
    try await insertBrokerages(["Zephyr Ridge Realty"], into: other)
    await other.close()
    try await Self.waitForNewStamp(server, after: before)
    let afterWrite = try await EmbeddedSandbox.curl([search])
    #expect(Self.names(afterWrite) == ["Zephyr Ridge Realty"])

    // A reset through this server: gone again.
    #expect(try await server.admin("POST", "/__sandbox/v1/reset", body: "{}").status == 200)
    #expect(Self.names(try await EmbeddedSandbox.curl([search])) == [])

    // The answer depends on Accept too, so a client that accepts no JSON is not answered from
    // the entry a JSON client left.
    let plain = try await EmbeddedSandbox.curl(["-H", "Accept: text/plain", search])
    #expect(plain.status == 406)
    #expect(
      plain.json?["error"] as? String
        == "this route answers application/json, not text/plain: send Accept: application/json")
    #expect(try await EmbeddedSandbox.curl(["-H", "Accept: text/plain, application/*;q=0.5", search]).status == 200)

    // Errors and other routes are not kept.
    let entries = cache.count
    #expect(try await EmbeddedSandbox.curl([server.base + "/api/brokerages/search?q=a&limit=99"]).status == 400)
    #expect(try await server.admin("GET", "/__sandbox/v1/info").status == 200)
    #expect(cache.count == entries)
  }

  /// On PostgreSQL the stamp is kept by a connection that listens for every instance's commits.
  /// When that connection is lost, nothing is cached until it is back, and a commit made in
  /// between is not missed.
  @Test(.enabled(if: TestDatabase.isPostgreSQL, "SQLite: the stamp is the WAL index, read from a file"))
  func postgreSQLListenerLostAndBackMissesNoCommit() async throws {
    let server = try await EmbeddedSandbox.start(features: SandboxRegistry.features)
    defer { Task { await server.stop() } }
    let search = server.base + "/api/brokerages/search?q=zephyr"
    #expect(Self.names(try await EmbeddedSandbox.curl([search])) == [])
    #expect(server.sandbox.responseCache.count == 1)
    let before = server.sandbox.responseCache.stamp()
    #expect(before != nil, "listening")

    let other = try await Self.openOther(server)
    let ended = try await other.readStatement { db in
      try await db.fetchColumn(
        Bool.self,
        """
        SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN%'
        """)
    }
    #expect(ended.count == 2, "this server's listener and the other instance's")
    try await insertBrokerages(["Zephyr Ridge Realty"], into: other)
    await other.close()
    try await Self.waitForNewStamp(server, after: before)
    #expect(Self.names(try await EmbeddedSandbox.curl([search])) == ["Zephyr Ridge Realty"])
    #expect(server.sandbox.responseCache.count == 1, "caching again")
  }

  /// Another instance's connection to the server's database (on SQLite, to its file).
  static func openOther(_ server: EmbeddedSandbox) async throws -> SandboxDatabase {
    try await SandboxDatabase.open(
      DatabaseLocation.parse(TestDatabase.location(for: server.directory.path("sandbox.sqlite"))),
      features: SandboxRegistry.features)
  }

  /// Waits (up to 10 s) until the server's change stamp is known and differs from `stamp`: at
  /// once on SQLite, when the commit's notification arrives on PostgreSQL.
  static func waitForNewStamp(_ server: EmbeddedSandbox, after stamp: DatabaseChangeStamp.Stamp?) async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while ContinuousClock.now < deadline {
      if let now = server.sandbox.responseCache.stamp(), now != stamp { return }
      try await Task.sleep(for: .milliseconds(5))
    }
    Issue.record("the change stamp did not move within 10 s")
  }

  /// The brokerage names of a search answer; nil when it is not one.
  static func names(_ reply: EmbeddedSandbox.Reply) -> [String]? {
    let json = try? JSONSerialization.jsonObject(with: Data(reply.body.utf8))
    return (json as? [[String: String]])?.compactMap { $0["name"] }
  }

  @Test func faultRulesStillApplyToCachedAnswers() async throws {
    let server = try await EmbeddedSandbox.start(features: SandboxRegistry.features)
    defer { Task { await server.stop() } }
    let search = server.base + "/api/brokerages/search?q=keller"
    #expect(try await EmbeddedSandbox.curl([search]).status == 200)
    #expect(server.sandbox.responseCache.count == 1)
    _ = try await server.addFault(#"{"path":"/api/brokerages/search","action":"status","status":503,"times":1}"#)
    #expect(try await EmbeddedSandbox.curl([search]).status == 503)
    #expect(try await EmbeddedSandbox.curl([search]).status == 200)
  }
}
