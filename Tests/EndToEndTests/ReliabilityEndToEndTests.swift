import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension DeckCLI {
  /// Starts every command at once, then waits for all of them (true parallel processes).
  func runInParallel(_ commands: [(arguments: [String], stdin: String?)], environment extra: [String: String] = [:])
    throws -> [Result]
  {
    let started = try commands.map { arguments, stdin in
      try Self.start(Self.binary, arguments, stdin: stdin, environment: environment.merging(extra) { $1 }, in: home)
    }
    return try started.map { try $0.finish() }
  }

  func tokenAccounts(_ environment: String) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: tokenFile))
    let file = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let environments = try #require(file["environments"] as? [String: Any])
    let accounts = try #require(environments[environment] as? [String: Any])
    return try #require(accounts["accounts"] as? [String: Any])
  }
}

/// A JWT (unsigned; deck only reads its claims) for `auth login --with-token`.
func unsignedJWT(email: String, expiresIn seconds: Int = 3600) -> String {
  func encode(_ text: String) -> String {
    Data(text.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
  }
  let exp = Int(Date().timeIntervalSince1970) + seconds
  return "\(encode(#"{"alg":"none"}"#)).\(encode(#"{"email":"\#(email)","exp":\#(exp)}"#)).c2ln"
}

/// Nothing listens on port 9 (discard) of loopback here.
let closedURL = "http://127.0.0.1:9"

@Suite("Reliability: secrets, hostile input, parallel writers", .endToEndTimeLimit)
struct ReliabilityEndToEndTests {
  @Test func aFailedSendNeverTracesThePasswordOrRefreshToken() throws {
    let deck = try DeckCLI()
    for trace in ["--trace", "--trace=body"] {
      let login = try deck.run(
        ["--env", "local", "auth", "login", "--email", "a@b.co", "--password-stdin", trace],
        stdin: "pw-Secret-42\n", environment: ["DECK_AUTH_URL": closedURL])
      #expect(login.status == 69, "\(login.stderr)")
      #expect(login.stderr.contains("< error POST"), "the failure is traced")
      #expect(!login.stderr.contains("pw-Secret-42"))
    }
    // An expired session: the refresh request fails to send and must not show the refresh token.
    let tokens = """
      {"version":1,"environments":{"local":{"active":"a@b.co","accounts":{"a@b.co":{"email":"a@b.co",
      "access_token":"acc-Secret","refresh_token":"ref-Secret-7","expires_at":1000}}}}}
      """
    try FileManager.default.createDirectory(atPath: deck.configDirectory, withIntermediateDirectories: true)
    #expect(FileManager.default.createFile(atPath: deck.tokenFile, contents: Data(tokens.utf8)))
    chmod(deck.tokenFile, 0o600)
    let refresh = try deck.run(
      ["--env", "local", "auth", "token", "--trace=body"], environment: ["DECK_AUTH_URL": closedURL])
    #expect(refresh.status == 69, "\(refresh.stderr)")
    #expect(!refresh.all.contains("ref-Secret-7"))
    #expect(!refresh.all.contains("acc-Secret"))
  }

  /// Issue 12's goal: with nothing listening, exit 69 in under 1 s, deck's retries included
  /// (it was 10.1 s per try). Measured 0.4-0.6 s on an idle machine (debug build). On a loaded
  /// machine (CI shares 2 cores with other builds) process start-up alone can approach a
  /// second, so the bound is on the time beyond start-up: the same binary, the same
  /// environment, a command that sends nothing (`env show`), timed just before, best of two.
  /// What is left is the connects and the retry waits (0.3-0.6 s by the policy).
  @Test func aRefusedConnectionExits69AfterDecksOwnRetries() throws {
    let deck = try DeckCLI()
    let variables = ["DECK_FLYR_URL": closedURL]
    func timed(_ arguments: [String]) throws -> (DeckCLI.Result, TimeInterval) {
      let start = Date()
      let result = try deck.run(arguments, environment: variables)
      return (result, Date().timeIntervalSince(start))
    }
    let startup = try (0..<2).map { _ in try timed(["--env", "local", "env", "show"]).1 }.min() ?? 0
    let (result, elapsed) = try timed(["--env", "local", "brokerage", "search", "x", "--trace"])
    #expect(result.status == 69)
    #expect(result.stderr.contains("Cannot reach 127.0.0.1:9: connection refused."))
    #expect(result.stderr.contains("deck sandbox serve"))
    // Three tries: the retry middleware sees the connect error through the runtime's wrapper.
    #expect(result.stderr.components(separatedBy: "> GET").count - 1 == 3, "\(result.stderr)")
    print("refused connection, 3 tries: \(Int(elapsed * 1000)) ms; start-up \(Int(startup * 1000)) ms")
    // The bug this guards against cost 10 s (connects retried until the connect timeout); the
    // bound sits far from both that and the expected 0.3-0.6 s, so a loaded machine does not
    // fail it. The speed itself is bench/'s `unreachable_s` row.
    #expect(elapsed - startup < 5, "\(Int(elapsed * 1000)) ms in all, \(Int(startup * 1000)) ms of start-up")
  }

  @Test func urlsFoundationRejectsNeverCrashDeck() throws {
    let deck = try DeckCLI()
    #expect(try deck.run(["env", "add", "e1"]).status == 0)
    for url in ["https://a^b.com", "https://a|b.com", "https://a.com/%zz", "https://a`b.com", "https://a\\b.com"] {
      let set = try deck.run(["env", "set", "e1", "recruiting=\(url)"])
      #expect(set.status == 64, "\(url): \(set.stderr)")
      #expect(set.stderr.contains("Invalid URL"))
      let variable = try deck.run(
        ["--env", "e1", "workspace", "access"], environment: ["DECK_TOKEN": "t", "DECK_RECRUITING_URL": url])
      #expect(variable.status == 1, "\(url): \(variable.stderr)")
      #expect(variable.stderr.contains("DECK_RECRUITING_URL"))
    }
    let config = deck.configDirectory + "/config.yml"
    try "environments:\n  e1:\n    recruiting: \"https://a^b.com\"\n".write(
      toFile: config, atomically: true, encoding: .utf8)
    let file = try deck.run(["--env", "e1", "workspace", "access"], environment: ["DECK_TOKEN": "t"])
    #expect(file.status == 1, "\(file.stderr)")
    #expect(file.stderr.contains("config.yml:3"))
  }

  @Test func anUnknownCurrentEnvironmentIsABadConfigFile() throws {
    let deck = try DeckCLI()
    try FileManager.default.createDirectory(atPath: deck.configDirectory, withIntermediateDirectories: true)
    try "current: nope\n".write(toFile: deck.configDirectory + "/config.yml", atomically: true, encoding: .utf8)
    let result = try deck.run(["brokerage", "search", "x"])
    #expect(result.status == 1, "\(result.stderr)")
    // README: a config file whose `current` names no environment "is reported with its line".
    #expect(
      result.stderr.contains("\(deck.configDirectory)/config.yml:1: `current` names an unknown environment, \"nope\""),
      "\(result.stderr)")
    #expect(result.stderr.contains("deck env use NAME"))
    #expect(try deck.run(["--env", "nope", "brokerage", "search", "x"]).status == 64)
    #expect(try deck.run(["env", "use", "sandbox"]).status == 0, "the fix the hint names works")
  }

  @Test func parallelLoginsKeepEveryAccount() throws {
    let deck = try DeckCLI()
    let commands = (0..<16).map { index in
      (arguments: ["auth", "login", "--with-token"], stdin: Optional(unsignedJWT(email: "user\(index)@x.test")))
    }
    let results = try deck.runInParallel(commands)
    #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr))")
    #expect(try deck.tokenAccounts("sandbox").count == 16, "lost updates: 0")
  }

  @Test func parallelFirstUsesOfTheMbtiStateShareOneUserID() throws {
    let deck = try DeckCLI()
    for round in 0..<3 {
      let results = try deck.runInParallel(
        (0..<8).map { _ in (arguments: ["--env", "local", "mbti", "user-id"], stdin: nil) })
      #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr))")
      let ids = Set(results.map(\.stdout))
      #expect(ids.count == 1, "round \(round): \(ids.count) different ids")
      let file = try String(contentsOfFile: deck.home + "/state/deck/mbti/local.json", encoding: .utf8)
      #expect(
        ids.first.map { file.contains($0.trimmingCharacters(in: .newlines)) } == true, "the id printed is the one kept")
      // The next round starts without a state file again.
      try FileManager.default.removeItem(atPath: deck.home + "/state/deck/mbti/local.json")
    }
  }

  @Test func parallelEnvAddsKeepEveryEnvironment() throws {
    let deck = try DeckCLI()
    let results = try deck.runInParallel((0..<16).map { (arguments: ["env", "add", "env\($0)"], stdin: nil) })
    #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr))")
    let config = try String(contentsOfFile: deck.configDirectory + "/config.yml", encoding: .utf8)
    for index in 0..<16 { #expect(config.contains("  env\(index): {}"), "env\(index)") }
  }

  @Test func parallelCommandsShareOneRefresh() throws {
    // Tokens that live 20 s are always inside deck's 30 s refresh window: every command refreshes.
    let server = try SandboxProcess(extraArguments: ["--access-token-ttl", "20"])
    let deck = try DeckCLI(server: server)
    let login = try deck.run(["auth", "login", "--email", "owner@sandbox.test", "--password-stdin"], stdin: "sandbox")
    #expect(login.status == 0, "\(login.stderr)")
    for _ in 0..<2 {
      let results = try deck.runInParallel(
        (0..<6).map { _ in (arguments: ["workspace", "access", "--json"], stdin: nil) })
      #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr))")
    }
  }

  @Test func theStoredTokenDoesNotFollowAnOverride() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let login = try deck.run(["auth", "login", "--email", "owner@sandbox.test", "--password-stdin"], stdin: "sandbox")
    #expect(login.status == 0, "\(login.stderr)")
    let own = try deck.run(["workspace", "access", "--trace=body"])
    #expect(own.status == 0, "\(own.stderr)")
    #expect(own.stderr.contains("> Authorization: Bearer [REDACTED]"))

    // The token was stored for the environment's origins; DECK_FLYR_URL now points elsewhere.
    let moved = try deck.run(["workspace", "access", "--trace=body"], environment: ["DECK_FLYR_URL": closedURL])
    #expect(moved.status == 69)
    #expect(moved.stderr.contains("! token withheld from http://127.0.0.1:9: DECK_FLYR_URL replaces"))
    #expect(!moved.stderr.contains("Authorization: Bearer"))

    let optIn = try deck.run(
      ["workspace", "access", "--trace=body"],
      environment: ["DECK_FLYR_URL": closedURL, "DECK_SEND_TOKEN_TO_OVERRIDES": "1"])
    #expect(optIn.stderr.contains("! token sent to http://127.0.0.1:9 because of DECK_SEND_TOKEN_TO_OVERRIDES=1"))
    #expect(optIn.stderr.contains("> Authorization: Bearer [REDACTED]"))
  }

  @Test func pluginsNeverGetDeckToken() throws {
    var deck = try DeckCLI()
    let directory = deck.home + "/bin"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try "#!/bin/sh\necho \"token=${DECK_TOKEN:-none}\"\n".write(
      toFile: directory + "/deck-peek", atomically: true, encoding: .utf8)
    chmod(directory + "/deck-peek", 0o755)
    deck.environment["PATH"] = directory + ":" + (deck.environment["PATH"] ?? "")
    let result = try deck.run(["peek"], environment: ["DECK_TOKEN": "exported-Secret", "DECK_ENV": "local"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "token=none\n")
  }

  @Test func unsafeDirectoriesAreRefused() throws {
    let deck = try DeckCLI()
    try FileManager.default.createDirectory(atPath: deck.configDirectory, withIntermediateDirectories: true)
    chmod(deck.configDirectory, 0o777)
    let result = try deck.run(["auth", "login", "--with-token"], stdin: unsignedJWT(email: "a@x.test"))
    #expect(result.status == 1)
    #expect(result.stderr.contains("chmod go-w \(deck.configDirectory)"))
    #expect(!FileManager.default.fileExists(atPath: deck.tokenFile), "no token written into it")
    chmod(deck.configDirectory, 0o700)
    #expect(try deck.run(["auth", "login", "--with-token"], stdin: unsignedJWT(email: "a@x.test")).status == 0)

    // The data directory (the embedded sandbox's database) too.
    let data = deck.home + "/data/deck"
    try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
    chmod(data, 0o757)
    let sandbox = try deck.run(["brokerage", "search", "keller"])
    #expect(sandbox.status == 1)
    #expect(sandbox.stderr.contains("chmod go-w \(data)"))
    chmod(data, 0o755)

    // No HOME and no XDG variables: an error, not a shared fallback such as /tmp/.config/deck.
    let homeless = try DeckCLI.execute(
      DeckCLI.binary, ["env", "add", "nowhere"], stdin: nil, environment: ["PATH": "/usr/bin:/bin"], in: deck.home)
    #expect(homeless.status == 1)
    #expect(homeless.stderr.contains("HOME is not set"))
  }

  @Test func controlCharactersFromInputNeverReachTheTerminal() throws {
    let deck = try DeckCLI()
    let result = try deck.run([], stdin: "brokerage \u{1B}]0;pwned\u{07}\u{1B}[2J\n")
    #expect(result.status == 64)
    #expect(result.stderr.contains("]0;pwned"), "the text is shown, without its escapes: \(result.stderr)")
    #expect(!result.all.contains("\u{1B}"))
    #expect(!result.all.contains("\u{07}"))
  }

  @Test func aStrayApostropheInALongScriptFailsFastAtItsLine() throws {
    let deck = try DeckCLI()
    var lines = ["# a long script", "env list --json", "env show O'Brien"]
    while lines.joined(separator: "\n").utf8.count < 255_000 { lines.append("env list --json  # padding line") }
    let path = deck.home + "/long.deck"
    try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    let start = Date()
    let result = try deck.run(["run", path])
    let elapsed = Date().timeIntervalSince(start)
    #expect(result.status == 64)
    #expect(result.stderr.contains("long.deck:3: unclosed ' quote opened on line 3"), "\(result.stderr)")
    #expect(result.stdout.split(separator: "\n").count == 1, "only the line before ran")
    #expect(elapsed < 10, "was 71 s for 255 kB")
    print("255 kB script with a stray apostrophe: \(Int(elapsed * 1000)) ms")
  }

  @Test func aHugeHistorySizeIsClampedNotATrap() throws {
    let deck = try DeckCLI()
    var environment = deck.environment
    environment["DECK_HISTORY_SIZE"] = "100000000000000000"
    let repl = try PseudoTerminal(arguments: ["repl"], environment: environment)
    _ = try repl.expect("deck (sandbox)> ")
    repl.send("env list\r")
    _ = try repl.expect("deck (sandbox)> ")
    // An unclosed quote continues; the continuation ends with the closing quote.
    repl.send("env show 'local\r")
    _ = try repl.expect("... ")
    repl.send("'\r")
    _ = try repl.expect("deck (sandbox)> ")
    repl.send("exit\r")
    #expect(try repl.waitForExit() == 0)
    let history = try String(contentsOfFile: deck.home + "/state/deck/history", encoding: .utf8)
    #expect(history.hasPrefix("env list\n"))
  }

  /// Needs strace (scripts/setup installs it), so that CI cannot skip it silently.
  @Test func atomicWritesSyncTheDirectoryAfterTheRename() throws {
    try #require(
      FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"), "strace is missing: run scripts/setup")
    let deck = try DeckCLI()
    let result = try DeckCLI.execute(
      "/usr/bin/strace",
      ["-f", "-e", "trace=rename,renameat,renameat2,fsync,openat", DeckCLI.binary, "env", "add", "e1"],
      stdin: nil, environment: deck.environment, in: deck.home)
    #expect(result.status == 0, "\(result.stderr)")
    let trace = result.stderr.split(separator: "\n").map(String.init)
    let rename = try #require(trace.lastIndex { $0.contains("rename") && $0.contains("config.yml") })
    // After the rename: the directory is opened and fsynced.
    let after = trace[rename...]
    let open = try #require(after.first { $0.contains("openat") && $0.contains("O_DIRECTORY") })
    let fd = try #require(open.split(separator: "=").last?.trimmingCharacters(in: .whitespaces))
    #expect(after.contains { $0.contains("fsync(\(fd))") }, "\(after)")
  }
}
