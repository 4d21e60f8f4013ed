import Foundation
import TestSupport
import Testing

@Suite("deck brokerage search, against deck sandbox serve", .endToEndTimeLimit)
struct BrokerageSearchEndToEndTests {
  @Test func tablePutsTheExactMatchFirst() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let result = try deck.run(["brokerage", "search", "keller williams realty"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.first?.hasPrefix("NAME") == true)
    #expect(lines.dropFirst().first?.hasPrefix("Keller Williams Realty  ") == true)
  }

  @Test func jsonIsTheResponseArray() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let result = try deck.run(["--json", "brokerage", "search", "  COMPASS  ", "--limit", "5"])
    #expect(result.status == 0, "\(result.stderr)")
    let rows = try #require(try json(result.stdout) as? [[String: Any]])
    #expect(!rows.isEmpty && rows.count <= 5)
    #expect(rows.allSatisfy { Set($0.keys) == ["id", "name"] })
    #expect(rows.first?["name"] as? String == "Compass")
    #expect(result.stderr.isEmpty)
  }

  @Test func rankingGoesExactPrefixWordSubstring() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let result = try deck.run(["brokerage", "search", "re/max", "--json", "--limit", "50"])
    let names = try #require(try json(result.stdout) as? [[String: Any]]).compactMap { $0["name"] as? String }
    #expect(names.first == "RE/MAX")
    #expect(names.dropFirst().allSatisfy { $0.lowercased().contains("re/max") })
  }

  @Test func emptyQueryIsAUsageErrorAndSendsNothing() throws {
    // No server at all: a usage error must come before any request.
    var deck = try DeckCLI()
    deck.environment["DECK_ENV"] = "local"
    deck.environment["DECK_FLYR_URL"] = "http://127.0.0.1:9"
    let result = try deck.run(["brokerage", "search", "   ", "--trace"])
    #expect(result.status == 64)
    #expect(result.stderr.contains("empty"))
    #expect(!result.stderr.contains("> GET"))
  }

  @Test func limitOutOfRangeIsAUsageError() throws {
    let deck = try DeckCLI()
    #expect(try deck.run(["brokerage", "search", "keller", "--limit", "51"]).status == 64)
    #expect(try deck.run(["brokerage", "search", "keller", "--limit", "0"]).status == 64)
  }

  @Test func noResultsIsNotAnError() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let plain = try deck.run(["brokerage", "search", "zzzz-no-such-brokerage"])
    #expect(plain.status == 0)
    #expect(plain.stdout.isEmpty, "nothing on a pipe; the friendly line is for terminals")
    let asJSON = try deck.run(["brokerage", "search", "zzzz-no-such-brokerage", "--json"])
    #expect(asJSON.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
  }

  @Test func unreachableServiceExits69() throws {
    var deck = try DeckCLI()
    deck.environment["DECK_ENV"] = "local"
    deck.environment["DECK_FLYR_URL"] = "http://127.0.0.1:9"
    let result = try deck.run(["brokerage", "search", "keller"])
    #expect(result.status == 69)
    #expect(result.stderr.contains("Cannot reach 127.0.0.1:9"))
    #expect(result.stderr.contains("deck sandbox serve"))
  }

  @Test func missingServiceURLShowsTheCommandToSetIt() throws {
    let deck = try DeckCLI()
    let result = try deck.run(["--env", "staging", "brokerage", "search", "keller"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("deck env set staging flyr="))
  }

  @Test func traceShowsRequestStatusAndTime() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let result = try deck.run(["brokerage", "search", "keller", "--trace"])
    #expect(result.status == 0)
    #expect(result.stderr.contains("> GET \(server.url)/api/brokerages/search?q=keller&limit=15"))
    #expect(result.stderr.contains("< 200"))
    #expect(result.stderr.contains(" ms)"))
  }
}

@Suite("The local sandbox", .endToEndTimeLimit)
struct EmbeddedSandboxEndToEndTests {
  @Test func freshSearchWorksWithNoSetup() throws {
    let deck = try DeckCLI()
    let result = try deck.run(["brokerage", "search", "keller"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Keller Williams Realty"))
    #expect(FileManager.default.fileExists(atPath: deck.home + "/data/deck/sandbox.sqlite"))
  }

  @Test func statePersistsAndResetStartsOver() throws {
    let deck = try DeckCLI()
    let signup = try deck.run(
      ["auth", "signup", "--email", "new@example.com", "--password-stdin"], stdin: "s3cret-pw\n")
    #expect(signup.status == 0, "\(signup.stderr)")
    let before = try deck.run(["sandbox", "status", "--json"])
    let counts = try #require(try json(before.stdout) as? [String: Any])["counts"] as? [String: Int]
    let users = counts?["users"]
    #expect(users == 4, "the demo owner, athlete and parent, and the new account")
    #expect(try deck.run(["sandbox", "reset"]).status == 0)
    let after = try #require(try json(try deck.run(["sandbox", "status", "--json"]).stdout) as? [String: Any])
    #expect((after["counts"] as? [String: Int])?["users"] == 3)
    #expect(
      try deck.run(["auth", "login", "--email", "new@example.com", "--password-stdin"], stdin: "s3cret-pw").status == 77
    )
  }

  @Test func helpTouchesNoFiles() throws {
    let deck = try DeckCLI()
    #expect(try deck.run(["--help"]).status == 0)
    #expect(try deck.run(["brokerage", "--help"]).status == 0)
    #expect(try deck.run(["brokerage", "search", "--help"]).stdout.contains("--limit"))
    #expect(deck.createdFiles().isEmpty)
  }
}
