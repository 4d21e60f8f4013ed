import Foundation
import TestSupport
import Testing

@testable import SandboxKit

/// `--database` / `DECK_SANDBOX_DATABASE`: which engine, where, and the password, which no
/// message ever shows.
@Suite struct DatabaseLocationTests {
  @Test func pathsAndSQLiteURLsAreSQLite() throws {
    #expect(try DatabaseLocation.parse("/var/lib/deck/sandbox.sqlite") == .sqlite(path: "/var/lib/deck/sandbox.sqlite"))
    #expect(try DatabaseLocation.parse("relative.sqlite") == .sqlite(path: "relative.sqlite"))
    #expect(try DatabaseLocation.parse("sqlite:/tmp/a.sqlite") == .sqlite(path: "/tmp/a.sqlite"))
    #expect(try DatabaseLocation.parse("sqlite:///tmp/a.sqlite") == .sqlite(path: "/tmp/a.sqlite"))
    #expect(throws: DatabaseLocationError.self) { try DatabaseLocation.parse("sqlite:") }
    #expect(throws: DatabaseLocationError.self) { try DatabaseLocation.parse("") }
    #expect(throws: DatabaseLocationError.self) { try DatabaseLocation.parse("mysql://u:secret@h/db") }
  }

  @Test func postgresURLsAsLibpqSpellsThem() throws {
    let parsed = try DatabaseLocation.parse("postgresql://qa:s%40cret@db.internal:6432/deck_team?sslmode=verify-full")
    guard case .postgres(let location) = parsed else {
      Issue.record("not PostgreSQL: \(parsed)")
      return
    }
    #expect(location.host == "db.internal")
    #expect(location.port == 6432)
    #expect(location.user == "qa")
    #expect(location.password == "s@cret")
    #expect(location.database == "deck_team")
    #expect(location.sslMode == .verifyFull)

    // TLS is on by default over TCP; the port defaults to 5432.
    guard case .postgres(let plain) = try DatabaseLocation.parse("postgres://qa@db.internal/deck") else {
      Issue.record("not PostgreSQL")
      return
    }
    #expect(plain.sslMode == .require)
    #expect(plain.port == 5432)
    #expect(plain.password == nil)
    guard case .postgres(let ipv6) = try DatabaseLocation.parse("postgres://qa@[::1]:5433/deck?sslmode=disable")
    else {
      Issue.record("not PostgreSQL")
      return
    }
    #expect(ipv6.host == "::1")
    #expect(ipv6.description == "postgres://qa@[::1]:5433/deck?sslmode=disable")
  }

  @Test func badURLsNameTheProblemWithoutThePassword() {
    let cases = [
      ("postgres://qa:hunter2@db/deck?sslmode=sometimes", "sslmode must be one of"),
      ("postgres://qa:hunter2@/deck", "no host"),
      ("postgres://qa:hunter2@db", "no database name"),
      ("postgres://qa:hunter2@db/deck?target_session_attrs=any", "is not supported"),
      ("postgres://qa:hunter2@db:99999/deck", "port"),
    ]
    for (text, reason) in cases {
      do {
        _ = try DatabaseLocation.parse(text)
        Issue.record("accepted \(text)")
      } catch {
        #expect(error.description.contains(reason), "\(error.description)")
        #expect(!error.description.contains("hunter2"), "\(error.description)")
      }
    }
  }

  @Test func thePasswordComesFromTheURLThenPGPASSWORDThenPgpass() throws {
    let directory = try ScratchDirectory()
    defer { directory.cleanUp() }
    let pgpass = directory.path("pgpass")
    try """
    # host:port:database:user:password
    other.host:5432:*:qa:wrong
    db.internal:5432:deck:qa:from\\:file
    *:*:*:*:fallback
    """.write(toFile: pgpass, atomically: true, encoding: .utf8)
    chmod(pgpass, 0o600)

    func location(_ text: String, _ environment: [String: String]) throws -> PostgresLocation? {
      guard case .postgres(let location) = try DatabaseLocation.parse(text, environment: environment) else {
        return nil
      }
      return location
    }
    let url = "postgres://qa@db.internal/deck"
    #expect(try location("postgres://qa:inline@db.internal/deck", ["PGPASSWORD": "env"])?.password == "inline")
    #expect(try location(url, ["PGPASSWORD": "env", "PGPASSFILE": pgpass])?.password == "env")
    let fromFile = try location(url, ["PGPASSFILE": pgpass])
    #expect(fromFile?.password == "from:file")
    #expect(fromFile?.passwordSource == pgpass)
    #expect(try location("postgres://qa@elsewhere/x", ["PGPASSFILE": pgpass])?.password == "fallback")
    // As libpq: a password file others can read is ignored.
    chmod(pgpass, 0o644)
    #expect(try location(url, ["PGPASSFILE": pgpass])?.password == nil)
    // The description never holds the password.
    #expect(try location("postgres://qa:inline@db.internal/deck", [:])?.description.contains("inline") == false)
  }
}
