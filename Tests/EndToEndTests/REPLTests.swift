import Foundation
import TestSupport
import Testing

/// The REPL under a real pseudo-terminal, against a served sandbox.
@Suite("REPL on a terminal", .endToEndTimeLimit)
struct REPLTests {
  func start(_ deck: DeckCLI, _ arguments: [String] = [], prompt: String = "deck (local)> ") throws -> PseudoTerminal {
    let terminal = try PseudoTerminal(deck: deck, arguments)
    try terminal.expect(prompt)
    return terminal
  }

  // A terminal keeps the home of the deck it was started from until it ends: started from a
  // temporary DeckCLI, the REPL used to lose its home (config, history) while it ran, and wrote
  // its history into a new directory that nothing removed.
  @Test func aTerminalKeepsItsHomeUntilItEnds() throws {
    let server = try SandboxProcess()
    var deck: DeckCLI? = try DeckCLI(server: server)
    let home = try #require(deck?.home)
    var repl: PseudoTerminal? = try start(try #require(deck))
    deck = nil
    repl?.send("env show --jq .name\r")
    try repl?.expect("\nlocal\n")
    repl?.send("exit\r")
    #expect(try repl?.waitForExit() == 0)
    let history = try String(contentsOfFile: home + "/state/deck/history", encoding: .utf8)
    #expect(history == "env show --jq .name\nexit\n")
    repl = nil
    #expect(!FileManager.default.fileExists(atPath: home), "the home goes with the terminal")
  }

  @Test func tabCompletesCommandsFlagsValuesAndBrokerageNames() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let repl = try start(deck)
    repl.send("brok\t")
    try repl.expect("brokerage ")
    repl.send("sea\t")
    try repl.expect("search ")
    repl.send("--li\t")
    try repl.expect("--limit ")
    repl.send("\u{15}completion z\t")  // Ctrl-U clears the line
    try repl.expect("completion zsh ")
    repl.send("\u{15}brokerage search \"Compass Re\t")
    try repl.expect("\"Compass Real Estate\" ")
    repl.send("\u{15}brokerage search \"kellER williams realty aus\t")
    try repl.expect("Keller Williams Realty Austin\" ")
    repl.send("\u{15}--env lo\t")
    try repl.expect("--env local ")
    // Options and arguments that name files complete file names, of the option's extensions.
    try FileManager.default.createDirectory(atPath: deck.home + "/work/answers", withIntermediateDirectories: true)
    for name in ["work/quiz.json", "work/quiz.csv"] {
      try Data("{}".utf8).write(to: URL(fileURLWithPath: deck.home + "/" + name))
    }
    repl.send("\u{15}mbti submit --answers \(deck.home)/work/q\t")
    try repl.expect("\(deck.home)/work/quiz.json ")
    repl.send("\u{15}qa export \(deck.home)/work/\t")
    try repl.expect("\(deck.home)/work/answers/")
    repl.send("\u{15}exit\r")
    #expect(try repl.waitForExit() == 0)
  }

  @Test func linesRunLikeOneShotCommandsAndErrorsDoNotEndTheREPL() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let repl = try start(deck)
    repl.send("deck brokerage search 're/max' --limit 1\r")
    try repl.expect("RE/MAX")
    try repl.expect("deck (local)> ")
    repl.send("brokerage search '   '\r")
    try repl.expect("empty")
    try repl.expect("deck (local)> ")
    repl.send("brokerage --help\r")
    try repl.expect("USAGE: deck brokerage")
    try repl.expect("deck (local)> ")
    repl.send("brokerage search \"keller # not a comment\" # a comment\r")
    try repl.expect("deck (local)> ")
    repl.send("brokerage search \"coldwell\r")
    try repl.expect("... ")
    repl.send("banker\"\r")
    try repl.expect("deck (local)> ")
    repl.send("\u{04}")
    #expect(try repl.waitForExit() == 0, "Ctrl-D exits 0")
  }

  @Test func historyPersistsAndSecretsAreNeverWritten() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let first = try start(deck)
    first.send("env list\r")
    try first.expect("deck (local)> ")
    first.send("auth login --email owner@sandbox.test --password sandbox\r")
    try first.expect("deck (local)> ")
    first.send("auth login --with-token\r")
    try first.expect("Token: ")
    first.send("eyJhbGciOiJIUzI1NiJ9.eyJlbWFpbCI6Im93bmVyQHNhbmRib3gudGVzdCJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ\r")
    try first.expect("deck (local")
    first.send("env list\r")
    first.send("exit\r")
    #expect(try first.waitForExit() == 0)

    let history = try String(contentsOfFile: deck.home + "/state/deck/history", encoding: .utf8)
    #expect(history == "env list\nexit\n", "consecutive duplicates dropped, secrets never written")
    let attributes = try FileManager.default.attributesOfItem(atPath: deck.home + "/state/deck/history")
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

    let second = try start(deck, prompt: "deck (local:owner@sandbox.test)> ")
    second.send("\u{1B}[A\u{1B}[A\r")  // Up twice: the line before `exit`, from the first run
    try second.expect("local sandbox")
    try second.expect("deck (local:owner@sandbox.test)> ")
    second.send("\u{12}env l")  // Ctrl-R: reverse search
    try second.expect("(reverse-i-search)")
    second.send("\r")  // runs the line found: env list
    try second.expect("local sandbox")
    try second.expect("deck (local:owner@sandbox.test)> ")
    second.send("history\r")
    try second.expect("env list\n    4  history")
    try second.expect("deck (local:owner@sandbox.test)> ")
    second.send("\u{04}")
    #expect(try second.waitForExit() == 0)
  }

  @Test func twoREPLsAtOnceBothKeepTheirLines() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let first = try start(deck)
    let second = try start(deck)
    first.send("env list\r")
    try first.expect("deck (local)> ")
    second.send("env show\r")
    try second.expect("deck (local)> ")
    first.send("auth status --offline\r")
    try first.expect("deck (local)> ")
    second.send("sandbox status\r")
    try second.expect("deck (local)> ")
    first.send("\u{04}")
    second.send("\u{04}")
    #expect(try first.waitForExit() == 0)
    #expect(try second.waitForExit() == 0)
    let history = try String(contentsOfFile: deck.home + "/state/deck/history", encoding: .utf8)
    #expect(history == "env list\nenv show\nauth status --offline\nsandbox status\n")
  }

  @Test func ctrlCCancelsASlowCommandAndTheREPLGoesOn() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let repl = try start(deck)
    repl.send("sandbox delay 10000\r")
    try repl.expect("delayed by 10000 ms")
    // --trace=body prints the request before it is sent: Ctrl-C comes once it is in flight.
    repl.send("brokerage search keller --trace=body\r")
    try repl.expect("> GET ")
    let started = Date()
    repl.send("\u{03}")
    try repl.expect("Interrupted.")
    #expect(Date().timeIntervalSince(started) < 5, "cancelled, not waited out")
    try repl.expect("deck (local)> ")
    repl.send("typed but dropped\u{03}")
    try repl.expect("deck (local)> ")
    repl.send("sandbox delay 0\r")
    try repl.expect("no longer delayed")
    repl.send("brokerage search compass --limit 1\r")
    try repl.expect("Compass")
    repl.send("exit\r")
    #expect(try repl.waitForExit() == 0)
  }

  @Test func useSwitchesTheEnvironmentForTheSessionOnly() throws {
    let server = try SandboxProcess()
    var deck = try DeckCLI(server: server)
    deck.environment.removeValue(forKey: "DECK_ENV")
    var environment = deck.environment
    environment["TERM"] = "xterm"
    let repl = try PseudoTerminal(arguments: ["repl"], environment: environment)
    try repl.expect("deck (sandbox)> ")
    repl.send("use local\r")
    try repl.expect("deck (local)> ")
    repl.send("use nowhere\r")
    try repl.expect("Unknown environment")
    repl.send("exit\r")
    #expect(try repl.waitForExit() == 0)
    #expect(!FileManager.default.fileExists(atPath: deck.configDirectory + "/config.yml"))
  }
}
