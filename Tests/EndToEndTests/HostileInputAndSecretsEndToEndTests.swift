import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Against the built binary: `--jq` programs that crashed deck, the REPL and `deck run
/// --keep-going`; secrets in the environment of plugins and the editor; writes to stdout that
/// failed silently; statuses the contracts do not document; documents too big to read.
@Suite("Hostile filters and documents, withheld secrets, failed writes", .endToEndTimeLimit)
struct HostileInputAndSecretsEndToEndTests {
  static let importRefused =
    "jq: import and include are not supported in --jq (deck reads no jq modules); write the definitions into the expression."

  @Test("--jq: input, debug, include and import end in a result or a clear error, not a signal")
  func jqOneShot() throws {
    let deck = try DeckCLI()
    let input = try deck.run(["env", "list", "--jq", "input"])
    #expect(input.status == 1, "\(input.stderr)")
    #expect(input.stderr.contains("jq: break"))
    let inputs = try deck.run(["env", "list", "--jq", "[inputs] | length"])
    #expect(inputs.status == 0)
    #expect(inputs.stdout == "0\n")
    let debug = try deck.run(["env", "list", "--jq", ".[0].name | debug"])
    #expect(debug.status == 0, "\(debug.stderr)")
    #expect(debug.stdout == "sandbox\n")
    #expect(debug.stderr.contains(#"["DEBUG:","sandbox"]"#))
    for program in [#"include "/etc/passwd"; ."#, #"import "/etc/passwd" as $p; ."#, #"import "a" as a; ."#] {
      let refused = try deck.run(["env", "list", "--jq", program])
      #expect(refused.status == 64, "\(program): \(refused.stderr)")
      #expect(refused.stderr.contains(Self.importRefused))
    }
  }

  @Test("--jq: bad filters in a script with --keep-going do not end it; every line runs")
  func jqScript() throws {
    let deck = try DeckCLI()
    let path = deck.home + "/script.deck"
    try """
    env list --jq input
    env list --jq '.[0].name | debug'
    env list --jq 'include "/etc/passwd"; .'
    env list --jq '[limit(3; repeat(1))] | length'

    """.write(toFile: path, atomically: true, encoding: .utf8)
    let result = try deck.run(["run", path, "--keep-going"])
    #expect(result.status == 1, "the first failure's code: \(result.stderr)")
    #expect(result.stdout == "sandbox\n3\n")
    #expect(result.stderr.contains(Self.importRefused))
  }

  @Test("--jq: bad filters in the REPL print their error and the REPL goes on")
  func jqREPL() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let prompt = "deck (local)> "
    let repl = try PseudoTerminal(deck: deck, [])
    try repl.expect(prompt)
    repl.send("env list --jq input\r")
    try repl.expect("jq: break")
    try repl.expect(prompt)
    repl.send("env list --jq '.[0].name | debug'\r")
    try repl.expect(#"["DEBUG:","sandbox"]"#)
    try repl.expect(prompt)
    repl.send("env list --jq 'include \"/etc/passwd\"; .'\r")
    try repl.expect("import and include are not supported")
    try repl.expect(prompt)
    repl.send("env list --jq '.[0].name'\r")
    try repl.expect("sandbox")
    try repl.expect(prompt)
    repl.send("exit\r")
    #expect(try repl.waitForExit() == 0)
  }

  /// A program that writes its whole environment to `file`, one variable a line.
  static func environmentDumper(at path: String, into file: String) throws {
    try "#!/bin/sh\nenv > '\(file)'\n".write(toFile: path, atomically: true, encoding: .utf8)
    chmod(path, 0o755)
  }

  @Test("a plugin gets neither DECK_TOKEN nor DECK_SANDBOX_ADMIN_TOKEN")
  func pluginEnvironment() throws {
    let server = try SandboxProcess()
    var deck = try DeckCLI(server: server)
    let directory = deck.home + "/bin"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let dump = deck.home + "/plugin-env"
    try Self.environmentDumper(at: directory + "/deck-dumpenv", into: dump)
    deck.environment["PATH"] = directory + ":" + (deck.environment["PATH"] ?? "")
    #expect(deck.environment["DECK_SANDBOX_ADMIN_TOKEN"] == server.adminToken)
    let result = try deck.run(
      ["dumpenv"], environment: ["DECK_TOKEN": "user-token-secret", "DECK_PLUGIN_MARKER": "visible"])
    #expect(result.status == 0, "\(result.stderr)")
    let environment = try String(contentsOfFile: dump, encoding: .utf8)
    #expect(environment.contains("DECK_PLUGIN_MARKER=visible"), "the dump holds the environment")
    #expect(environment.contains("DECK_ENV=local"))
    #expect(!environment.contains("DECK_TOKEN"))
    #expect(!environment.contains("DECK_SANDBOX_ADMIN_TOKEN"))
    #expect(!environment.contains(server.adminToken))
    #expect(!environment.contains("user-token-secret"))
  }

  @Test("the editor of prefs edit gets neither token")
  func editorEnvironment() throws {
    let (server, deck) = try DeckCLI.signedIn()
    defer { withExtendedLifetime(server) {} }
    let dump = deck.home + "/editor-env"
    let editor = deck.home + "/dump-editor.sh"
    try Self.environmentDumper(at: editor, into: dump)
    let result = try deck.run(
      ["prefs", "edit", "location"], environment: ["EDITOR": editor, "DECK_EDITOR_MARKER": "visible"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("Edit cancelled: the file is unchanged"))
    let environment = try String(contentsOfFile: dump, encoding: .utf8)
    #expect(environment.contains("DECK_EDITOR_MARKER=visible"), "the dump holds the environment")
    #expect(deck.environment["DECK_SANDBOX_ADMIN_TOKEN"] == server.adminToken)
    #expect(!environment.contains("DECK_SANDBOX_ADMIN_TOKEN"))
    #expect(!environment.contains(server.adminToken))
    #expect(!environment.contains("DECK_TOKEN"))
  }

  /// `deck ARGUMENTS` run by a shell command (`$0` is deck, `$@` the arguments).
  static func runRedirected(
    _ deck: DeckCLI, _ arguments: [String], _ shell: String, binary: String = DeckCLI.binary
  ) throws -> DeckCLI.Result {
    try DeckCLI.execute(
      "/bin/sh", ["-c", shell, binary] + arguments, stdin: nil, environment: deck.environment, in: deck.home)
  }

  @Test("a failed write to stdout is an error (exit 1, a message); a closed pipe stays quiet")
  func stdoutWriteErrors() throws {
    let (server, deck) = try DeckCLI.signedIn()
    defer { withExtendedLifetime(server) {} }
    let full = try Self.runRedirected(deck, ["prefs", "export"], #"exec "$0" "$@" >/dev/full"#)
    #expect(full.status == 1, "\(full.stderr)")
    #expect(full.stderr.contains("cannot write the output to stdout: No space left on device"))
    for arguments in [["env", "list", "--json"], ["completion", "bash"], ["--help"]] {
      let other = try Self.runRedirected(deck, arguments, #"exec "$0" "$@" >/dev/full"#)
      #expect(other.status == 1, "\(arguments): \(other.stderr)")
    }
    // A file size limit (1 block): EFBIG, not a silent cut.
    let limited = try Self.runRedirected(
      deck, ["prefs", "export"], #"ulimit -f 1; exec "$0" "$@" >"$HOME/cut.yaml""#)
    #expect(limited.status == 1, "\(limited.stderr)")
    #expect(limited.stderr.contains("cannot write the output to stdout: File too large"))
    // The same command to a file that takes it all: exit 0.
    let whole = try Self.runRedirected(deck, ["prefs", "export"], #"exec "$0" "$@" >"$HOME/whole.yaml""#)
    #expect(whole.status == 0, "\(whole.stderr)")
    let size = try FileManager.default.attributesOfItem(atPath: deck.home + "/whole.yaml")[.size] as? Int ?? 0
    #expect(size > 512, "the export is longer than the limit above")
    // A reader that stops early: no message.
    let piped = try Self.runRedirected(
      deck, [],
      #"i=0; while [ $i -lt 3000 ]; do echo "env list --json"; i=$((i+1)); done | "$0" 2>"$HOME/err" | head -c 1 >/dev/null; cat "$HOME/err""#
    )
    #expect(piped.stdout.isEmpty, "deck said nothing on stderr: \(piped.stdout)")
  }

  @Test("statuses the contract does not document (204, 201, 100, 102): one message naming service, operation, status")
  func undocumentedStatuses() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    for status in [204, 201, 100, 102] {
      let added = try deck.run(["sandbox", "fault", "add", "/api/brokerages/search", "--status", "\(status)"])
      #expect(added.status == 0, "\(added.stderr)")
      let result = try deck.run(["brokerage", "search", "keller"])
      #expect(result.status == 1, "\(status): \(result.stderr)")
      if status >= 200 {
        #expect(
          result.stderr.contains(
            "error: The flyr service answered searchBrokerages with HTTP \(status), which its contract does not document for it."
          ), "\(result.stderr)")
      } else {
        #expect(result.stderr.contains("answered searchBrokerages with a response that is not valid HTTP"))
        #expect(result.stderr.contains("an informational status (1xx)"))
      }
      for leaked in ["OpenAPIRuntime", "undocumented(", "UndocumentedPayload", "HTTPBody", "Unexpected response,"] {
        #expect(!result.stderr.contains(leaked), "\(status): \(result.stderr)")
      }
      #expect(try deck.run(["sandbox", "fault", "clear"]).status == 0)
    }
  }

  /// An EDITOR that counts its runs (in `count`) and writes `document` over the file each time.
  static func overwritingEditor(in directory: String, _ document: String) throws -> String {
    let path = directory + "/overwrite.sh"
    try document.write(toFile: directory + "/document.yaml", atomically: true, encoding: .utf8)
    try """
    #!/bin/sh
    echo x >> "\(directory)/count"
    cp "\(directory)/document.yaml" "$1"
    """.write(toFile: path, atomically: true, encoding: .utf8)
    chmod(path, 0o755)
    return path
  }

  /// Nine levels of ten aliases: a few hundred bytes, 10^9 values once expanded.
  static let billionLaughs =
    (1...9).reduce("a0: &a0 [lol]\n") { text, level in
      text + "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
    } + "searchRadiusMiles: *a9\n"

  @Test("prefs edit: a billion laughs is refused before it is read; the same bad file twice stops with 64")
  func prefsEditBounds() throws {
    let (server, deck) = try DeckCLI.signedIn()
    defer { withExtendedLifetime(server) {} }
    for (name, document, problem) in [
      ("laughs", Self.billionLaughs, "holds more than 100000 values once its aliases (*name) are expanded"),
      ("invalid", "followUpReminderDays: 500\n", "followUpReminderDays: 500 is out of range"),
    ] {
      let directory = deck.home + "/" + name
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      let editor = try Self.overwritingEditor(in: directory, document)
      let started = Date()
      let result = try deck.run(["prefs", "edit", "notifications"], environment: ["EDITOR": editor])
      #expect(result.status == 64, "\(name): \(result.stderr)")
      #expect(result.stderr.contains("The file came back unchanged from the last attempt, with its problems:"))
      #expect(result.stderr.contains(problem), "\(name): \(result.stderr)")
      let runs = try String(contentsOfFile: directory + "/count", encoding: .utf8).split(separator: "\n").count
      #expect(runs == 2, "\(name): the editor opened \(runs) times")
      #expect(Date().timeIntervalSince(started) < 20)
    }
  }

  @Test("prefs import - and mbti submit read at most 1 MB, from stdin or a file")
  func inputCaps() throws {
    let (server, deck) = try DeckCLI.signedIn()
    defer { withExtendedLifetime(server) {} }
    let started = Date()
    let endless = try Self.runRedirected(deck, ["prefs", "import", "-"], #"yes | exec "$0" "$@""#)
    #expect(endless.status == 64, "\(endless.stderr)")
    #expect(
      endless.stderr.contains("The export document (stdin) is larger than 1 MB (1048576 bytes), the most deck reads."))
    #expect(Date().timeIntervalSince(started) < 30, "yes | … ends at the cap")
    let big = deck.home + "/big.yaml"
    try Data(repeating: UInt8(ascii: "#"), count: (1 << 20) + 1).write(to: URL(fileURLWithPath: big))
    let file = try deck.run(["prefs", "import", big])
    #expect(file.status == 64)
    #expect(file.stderr.contains("The export document (\(big)) is larger than 1 MB"))
    let answers = try deck.run(["mbti", "submit", "--answers", big])
    #expect(answers.status == 64)
    #expect(answers.stderr.contains("The answers file (\(big)) is larger than 1 MB"))
    // At the limit, the document is read (and found wrong for what it is).
    try Data(repeating: UInt8(ascii: "#"), count: 1 << 20).write(to: URL(fileURLWithPath: big))
    #expect(!(try deck.run(["prefs", "import", big]).stderr.contains("larger than 1 MB")))
  }
}
