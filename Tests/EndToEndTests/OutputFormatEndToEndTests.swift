import Foundation
import TestSupport
import Testing

/// `--jq` and `--format` through the binary, against `deck sandbox serve`: one-shot, in a
/// script and in the REPL.
@Suite("--jq and --format, against deck sandbox serve", .endToEndTimeLimit)
struct OutputFormatEndToEndTests {
  @Test func jqPrintsTheFirstNameRaw() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let listed = try #require(
      try json(try deck.run(["brokerage", "search", "keller", "--json"]).stdout) as? [[String: Any]])
    let first = try #require(listed.first?["name"] as? String)
    let result = try deck.run(["brokerage", "search", "keller", "--jq", ".[0].name"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == first + "\n", "the name, raw: no quotes")
    let quoted = try deck.run(["brokerage", "search", "sotheby's international", "--jq", ".[0].name"])
    #expect(quoted.stdout == "Sotheby's International Realty\n")
  }

  @Test func jqCannotReadTokensFromTheEnvironment() throws {
    let deck = try DeckCLI()
    let result = try deck.run(
      ["env", "show", "--jq", "[$ENV.DECK_TOKEN, env.DECK_SANDBOX_ADMIN_TOKEN, env.HOME == $ENV.HOME]"],
      environment: ["DECK_TOKEN": "secret-token-1", "DECK_SANDBOX_ADMIN_TOKEN": "secret-token-2"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "[null,null,true]\n")
  }

  @Test func badJQExpressionExits64WithJQsMessageAndSendsNothing() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let result = try deck.run(["brokerage", "search", "keller", "--trace", "--jq", ".[0].name | nosuch(1)"])
    #expect(result.status == 64)
    #expect(result.stderr.contains("jq: error: nosuch/1 is not defined"), "\(result.stderr)")
    #expect(result.stderr.contains("jq: 1 compile error"))
    #expect(!result.stderr.contains("> GET"), "nothing was sent: \(result.stderr)")
    #expect(result.stdout.isEmpty)
    // The same line with a good expression does send (so the trace above would have shown it).
    let good = try deck.run(["brokerage", "search", "keller", "--trace", "--jq", ".[0].name"])
    #expect(good.stderr.contains("> GET \(server.url)/api/brokerages/search"))
  }

  @Test func csvQuotesANameWithAComma() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let listed = try #require(
      try json(try deck.run(["brokerage", "search", "your community", "--json"]).stdout) as? [[String: Any]])
    #expect(listed.count == 1)
    let id = try #require(listed.first?["id"] as? String)
    let result = try deck.run(["brokerage", "search", "your community", "--format", "csv"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "id,name\n\(id),\"Royal LePage Your Community Realty, Brokerage\"\n")
  }

  @Test func jqAndFormatsWorkInARunScript() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let path = deck.home + "/formats.deck"
    try """
    brokerage search 'keller williams realty' --limit 2 --jq '.[].name'
    brokerage search 'your community' --format csv
    env show --jq .name
    brokerage search keller --jq '.[0'
    env list
    """.write(toFile: path, atomically: true, encoding: .utf8)
    let result = try deck.run(["run", path])
    #expect(result.status == 64, "the bad expression stops the run")
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.first == "Keller Williams Realty", "the exact match first, raw: \(result.stdout)")
    #expect(lines[1].hasPrefix("Keller Williams Realty "))
    #expect(lines[2] == "id,name")
    #expect(lines[3].hasSuffix(",\"Royal LePage Your Community Realty, Brokerage\""))
    #expect(lines[4] == "local")
    #expect(lines.count == 6, "nothing after the failing line: \(result.stdout)")
    #expect(result.stderr.contains("formats.deck:4"))
    #expect(result.stderr.contains("jq: error: syntax error"))
    // Through stdin, as a pipe.
    let piped = try deck.run([], stdin: "env show --jq .name\nbrokerage search compass --limit 1 --jq '.[0].name'\n")
    #expect(piped.stdout == "local\nCompass\n", "\(piped.stderr)")
  }

  @Test func jqWorksInTheREPLAndABadOneDoesNotEndIt() throws {
    let server = try SandboxProcess()
    let repl = try REPLTests().start(try DeckCLI(server: server))
    repl.send("brokerage search 'keller williams realty' --jq '.[0].name'\r")
    try repl.expect("\nKeller Williams Realty\n")
    try repl.expect("deck (local)> ")
    repl.send("brokerage search keller --jq '.[0'\r")
    try repl.expect("jq: error: syntax error")
    try repl.expect("deck (local)> ")
    repl.send("brokerage search 'your community' --format csv\r")
    try repl.expect("\"Royal LePage Your Community Realty, Brokerage\"")
    try repl.expect("deck (local)> ")
    repl.send("env show --jq '{name}'\r")
    try repl.expect(#"{"name":"local"}"#)
    try repl.expect("deck (local)> ")
    repl.send("exit\r")
    #expect(try repl.waitForExit() == 0)
  }
}
