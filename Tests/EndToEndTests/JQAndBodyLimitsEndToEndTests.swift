import Foundation
import TestSupport
import Testing

/// Issue 44, findings 6 and 7, through the built binaries: a `--jq` filter that crashes libjq
/// (CVE-2024-23337) or never ends takes down neither a one-shot command, nor a script, nor a QA
/// run; a response body stops at the transport's limit while it streams in.
@Suite("jq filters and response bodies within their limits", .endToEndTimeLimit)
struct JQAndBodyLimitsEndToEndTests {
  /// The CVE's filter with a literal index (refused before it runs) and with a computed one
  /// (the filter child crashes or meets its memory limit).
  static let literal = ".[1000000000] = 1"
  static let computed = "(1000000000 | floor) as $i | .[$i] = 1"

  /// What deck says when the computed filter ends its child.
  static func endedTheChild(_ stderr: String) -> Bool {
    stderr.contains("jq: the filter crashed libjq") || stderr.contains("jq: the filter ran out of memory")
  }

  @Test("one-shot: the CVE filter ends with exit 1 and a clear message, not a signal")
  func oneShot() throws {
    let deck = try DeckCLI()
    let refused = try deck.run(["env", "list", "--jq", Self.literal])
    #expect(refused.status == 1, "\(refused.stderr)")
    #expect(refused.stderr.contains("jq: the filter indexes an array at 1000000000"), "\(refused.stderr)")
    #expect(refused.stderr.contains("CVE-2024-23337"))
    let crashed = try deck.run(["env", "list", "--jq", Self.computed])
    #expect(crashed.status == 1, "\(crashed.stderr)")
    #expect(Self.endedTheChild(crashed.stderr), "\(crashed.stderr)")
    #expect(crashed.stdout.isEmpty)
  }

  @Test("run --keep-going: the CVE filters fail their lines and the script goes on")
  func script() throws {
    let deck = try DeckCLI()
    let path = deck.home + "/script.deck"
    try """
    env list --jq '\(Self.computed)'
    env list --jq '\(Self.literal)'
    env list --jq '.[0].name'

    """.write(toFile: path, atomically: true, encoding: .utf8)
    let result = try deck.run(["run", path, "--keep-going"])
    #expect(result.status == 1, "the first failure's code: \(result.stderr)")
    #expect(result.stdout == "sandbox\n", "\(result.stderr)")
    #expect(Self.endedTheChild(result.stderr), "\(result.stderr)")
    #expect(result.stderr.contains("CVE-2024-23337"))
  }

  @Test("the REPL: the CVE filters print their error and the REPL goes on")
  func repl() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let prompt = "deck (local)> "
    let repl = try PseudoTerminal(deck: deck, [])
    try repl.expect(prompt)
    repl.send("env list --jq '\(Self.computed)'\r")
    try repl.expect("jq: the filter ")
    try repl.expect(prompt)
    repl.send("env list --jq '\(Self.literal)'\r")
    try repl.expect("CVE-2024-23337")
    try repl.expect(prompt)
    repl.send("env list --jq '.[0].name'\r")
    try repl.expect("sandbox")
    try repl.expect(prompt)
    repl.send("exit\r")
    #expect(try repl.waitForExit() == 0)
  }

  @Test("qa run: a crashing and an endless jq expectation fail their steps, and the run ends with its report")
  func qaRun() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let path = deck.home + "/limits.yaml"
    try """
    module: brokerage
    scenarios:
      - id: crashing
        title: A jq expectation that crashes libjq
        tags: [readonly]
        steps:
          - run: brokerage search keller --json
            expect:
              jq: ['\(Self.computed) | length > 0']
      - id: endless
        title: A jq expectation that never ends
        tags: [readonly]
        steps:
          - run: brokerage search keller --json
            expect:
              jq: ['last(range(1e18)) > 0']
      - id: fine
        title: A jq expectation that holds
        tags: [readonly]
        steps:
          - run: brokerage search keller --json
            expect:
              jq: ['length > 0']
    """.write(toFile: path, atomically: true, encoding: .utf8)
    let started = Date()
    let result = try deck.run(["qa", "run", path, "--jobs", "3", "--report", "json"])
    #expect(result.status == 1, "\(result.stderr)")
    let object = try #require(try json(result.stdout) as? [String: Any], "\(result.stdout)\n\(result.stderr)")
    let scenarios = Dictionary(
      uniqueKeysWithValues: (object["scenarios"] as? [[String: Any]] ?? []).map { ($0["id"] as? String ?? "", $0) })
    func message(_ id: String) -> String {
      ((scenarios[id]?["steps"] as? [[String: Any]])?.first?["message"] as? String) ?? ""
    }
    #expect(scenarios["fine"]?["status"] as? String == "passed")
    #expect(scenarios["crashing"]?["status"] as? String == "failed")
    let crashing = message("crashing")
    #expect(
      crashing.contains("the filter crashed libjq") || crashing.contains("the filter ran out of memory"), "\(crashing)")
    #expect(scenarios["endless"]?["status"] as? String == "failed")
    #expect(message("endless").contains("the filter ran over 10 s of CPU time"), "\(message("endless"))")
    #expect(Date().timeIntervalSince(started) < 100)
  }

  /// A server whose every GET answers with a body that ends after 1 GiB, streamed.
  static let hugeBodies = """
    import http.server, socketserver
    class Huge(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def do_GET(self):
            chunk = b"[" + b"1," * 32767 + b"1]"
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Connection", "close")
            self.end_headers()
            try:
                for _ in range((1 << 30) // len(chunk)):
                    self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
        def log_message(self, *args): pass
    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
    server = Server(("127.0.0.1", 0), Huge)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """

  /// Runs deck under python, which reports its peak resident memory (KB) as stderr's last line.
  static func measured(_ deck: DeckCLI, _ arguments: [String]) throws -> (result: DeckCLI.Result, peakMB: Int) {
    let wrapper = """
      import resource, subprocess, sys
      code = subprocess.run(sys.argv[1:]).returncode
      print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)
      sys.exit(code)
      """
    let result = try DeckCLI.execute(
      "/usr/bin/env", ["python3", "-c", wrapper, DeckCLI.binary] + arguments, stdin: nil,
      environment: deck.environment, in: deck.home)
    let last = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
    return (result, (Int(last) ?? Int.max) / 1024)
  }

  @Test("a 1 GiB answer stops at 32 MB: exit 1, naming the host and the operation, in bounded memory")
  func hugeBody() throws {
    let server = try PythonServer(Self.hugeBodies)
    var deck = try DeckCLI()
    deck.environment["DECK_ENV"] = "local"
    deck.environment["DECK_FLYR_URL"] = "http://127.0.0.1:\(server.port)"
    let (result, peakMB) = try Self.measured(deck, ["brokerage", "search", "keller"])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "127.0.0.1:\(server.port) answered searchBrokerages with a body over 32 MB, the most deck reads of one response"
      ),
      "\(result.stderr)")
    // It went to 3.1 GB when the body was read whole.
    #expect(peakMB < 300, "peak \(peakMB) MB")
  }

  @Test("contract check stops a 1 GiB answer at its 4 MB while it streams in, in bounded memory")
  func contractCheckBody() throws {
    let server = try PythonServer(Self.hugeBodies)
    var deck = try DeckCLI()
    deck.environment["DECK_ENV"] = "local"
    deck.environment["DECK_FLYR_URL"] = "http://127.0.0.1:\(server.port)"
    let (result, peakMB) = try Self.measured(
      deck, ["contract", "check", "--operation", "searchBrokerages", "--rate", "50", "--json"])
    #expect(result.status == 69, "every operation sent was unreachable: \(result.stderr)")
    #expect(
      result.stderr.contains("127.0.0.1:\(server.port) answered searchBrokerages with a body over 4 MB"),
      "\(result.stderr)")
    // It went to 2.1 GB when the cap applied after reading.
    #expect(peakMB < 300, "peak \(peakMB) MB")
  }
}
