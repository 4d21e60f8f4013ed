import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 44, findings 4 (environments), 14 and 15, through the built binaries: a copy of
/// production stays production, writers leave FIFOs and devices what they are, and a token
/// stored for one scheme is not sent to another.
@Suite("Environments, token origins and output files", .endToEndTimeLimit)
struct EnvAndFilesSecurityEndToEndTests {
  // MARK: Finding 4: production

  @Test func aCopyOfProductionStaysProduction() throws {
    let deck = try DeckCLI()
    #expect(try deck.run(["env", "add", "copy", "--from", "production"]).status == 0)
    let shown = try #require(try json(try deck.run(["env", "show", "copy", "--json"]).stdout) as? [String: Any])
    #expect(shown["production"] as? Bool == true)
    let config = try String(contentsOfFile: deck.configDirectory + "/config.yml", encoding: .utf8)
    #expect(config.contains("production: true"), "the mark is copied: \(config)")

    // Unmarking changes nothing while its services are production's.
    let unmarked = try deck.run(["env", "set", "copy", "production=false"])
    #expect(unmarked.status == 64)
    #expect(unmarked.stderr.contains("stays production"), "\(unmarked.stderr)")
    let sandbox = try deck.run(["env", "set", "copy", "sandbox=true"])
    #expect(sandbox.status == 64)
    #expect(sandbox.stderr.contains("never a sandbox"), "\(sandbox.stderr)")
    let operated = try deck.run(["--env", "copy", "sandbox", "status", "--trace"])
    #expect(operated.status == 64)
    #expect(operated.stderr.contains("it is production"), "\(operated.stderr)")
    #expect(!operated.stderr.contains("> GET"))

    // The README's example copies staging: not production.
    #expect(try deck.run(["env", "add", "staging-eu", "--from", "staging"]).status == 0)
    let set = try deck.run([
      "env", "set", "staging-eu", "flyr=https://staging.flyrpro.app", "kiosk=https://kiosk.example.com",
    ])
    #expect(set.status == 0, "\(set.stderr)")
    #expect(try deck.run(["env", "show", "staging-eu", "--json"]).stdout.contains("\"production\":false"))
    // One service at a production origin is enough, and env show and env list say so.
    #expect(try deck.run(["env", "set", "staging-eu", "nudge=https://API.nudge.starshape.in/"]).status == 0)
    let text = try deck.run(["env", "show", "staging-eu"])
    #expect(text.stdout.contains("nudge is at https://api.nudge.starshape.in:443"), "\(text.stdout)")
    let list = try deck.run(["env", "list"])
    let line = list.stdout.split(separator: "\n").first { $0.contains("staging-eu") } ?? ""
    #expect(line.contains("production"), "\(list.stdout)")

    // DECK_<SERVICE>_URL at production makes the environment production too.
    let overridden = try deck.run(
      ["--env", "staging", "env", "show", "--json"], environment: ["DECK_FLYR_URL": "https://flyrpro.app"])
    #expect(overridden.stdout.contains("\"production\":true"), "\(overridden.stdout)")
  }

  static let tagged = """
    module: brokerage
    scenarios:
      - id: reads
        tags: [readonly]
        steps: [{run: brokerage search keller --json}]
      - id: writes
        tags: [writes]
        generate: {who: email}
        steps:
          - run: auth signup --email ${who} --password-stdin
            stdin: "Corr3ct-Horse-Battery-9\\n"
    """

  @Test func qaRunRefusesWritesToAnEnvironmentAtAProductionEnvironmentsURLs() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let file = deck.home + "/tagged.yaml"
    try Data(Self.tagged.utf8).write(to: URL(fileURLWithPath: file))
    #expect(try deck.run(["env", "add", "live", "--sandbox", server.url]).status == 0)
    let marked = try deck.run(["env", "set", "live", "production=true", "sandbox=false"])
    #expect(marked.status == 0, "\(marked.stderr)")
    // `twin` is not marked, but it is the same server.
    #expect(try deck.run(["env", "add", "twin", "--sandbox", server.url]).status == 0)
    let run = try deck.run(["qa", "run", file, "--env", "twin", "--report", "json"])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stderr.contains("twin is production"), "\(run.stderr)")
    let report = try #require(try json(run.stdout) as? [String: Any])
    let scenarios = report["scenarios"] as? [[String: Any]] ?? []
    let writes = scenarios.first { $0["id"] as? String == "writes" }
    #expect(writes?["status"] as? String == "skipped", "\(run.stdout)")
  }

  // MARK: Finding 15: token origins

  @Test func aTokenStoredForHTTPSIsWithheldFromPlainHTTPOnTheSamePort() throws {
    let server = try SandboxProcess()
    let port = try #require(server.url.split(separator: ":").last.map(String.init))
    let deck = try DeckCLI()
    #expect(try deck.run(["env", "add", "lab"]).status == 0)
    // Sign in while flyr is at https://localhost:PORT (auth at the served sandbox).
    let set = try deck.run(["env", "set", "lab", "auth=\(server.url)", "flyr=https://localhost:\(port)"])
    #expect(set.status == 0, "\(set.stderr)")
    let login = try deck.run(
      ["--env", "lab", "auth", "login", "--email", "owner@sandbox.test", "--password-stdin"], stdin: "sandbox")
    #expect(login.status == 0, "\(login.stderr)")
    // The scheme changes: the same host and port, plain http.
    #expect(try deck.run(["env", "set", "lab", "flyr=http://localhost:\(port)"]).status == 0)
    let moved = try deck.run(["--env", "lab", "workspace", "access", "--trace=body"])
    #expect(!moved.stderr.contains("Authorization: Bearer"), "\(moved.stderr)")
    #expect(moved.stderr.contains("! token withheld from http://localhost:\(port):"), "\(moved.stderr)")
    #expect(moved.status == 77, "\(moved.stderr)")
    // Signed in again, the token is stored for the new origin and goes there.
    #expect(
      try deck.run(
        ["--env", "lab", "auth", "login", "--email", "owner@sandbox.test", "--password-stdin"], stdin: "sandbox"
      ).status == 0)
    let again = try deck.run(["--env", "lab", "workspace", "access", "--trace=body"])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stderr.contains("> Authorization: Bearer [REDACTED]"))
  }

  // MARK: Finding 14: FIFOs, devices and links

  /// A FIFO under `directory`, open at both ends by the test: a writer neither waits nor loses
  /// its bytes, and `drain` reads what came.
  struct FIFOError: Error, CustomStringConvertible { var description: String }

  struct HeldFIFO {
    let path: String
    let descriptor: Int32

    init(_ path: String) throws {
      guard mkfifo(path, 0o600) == 0 else { throw FIFOError(description: "mkfifo \(path): errno \(errno)") }
      descriptor = open(path, O_RDWR | O_NONBLOCK)
      guard descriptor >= 0 else { throw FIFOError(description: "open \(path): errno \(errno)") }
      self.path = path
    }

    func drain() -> String {
      var bytes: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 65536)
      while true {
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { break }
        bytes += buffer.prefix(count)
      }
      return String(decoding: bytes, as: UTF8.self)
    }

    func close() { _ = Glibc.close(descriptor) }
  }

  static func type(_ path: String) -> mode_t {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
  }

  /// A copy of a system character device (never the system's own node), or nil when this
  /// user cannot make one.
  static func device(_ path: String, minor: UInt) -> String? {
    guard geteuid() == 0, mknod(path, S_IFCHR | 0o666, dev_t((1 << 8) | minor)) == 0 else { return nil }
    return path
  }

  @Test func historyExportWritesIntoAFIFOADeviceAndThroughALink() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let fifo = try HeldFIFO(deck.home + "/fifo")
    defer { fifo.close() }
    let repl = try REPLTests().start(deck)
    repl.send("env list\r")
    _ = try repl.expect("deck (local)> ")

    repl.send("history --export \(fifo.path)\r")
    _ = try repl.expect("deck (local)> ")
    #expect(Self.type(fifo.path) == S_IFIFO, "the FIFO is still a FIFO")
    #expect(fifo.drain().contains("\nenv list\n"))

    if let null = Self.device(deck.home + "/null", minor: 3) {
      repl.send("history --export \(null)\r")
      _ = try repl.expect("Wrote 1 command to \(null)")
      _ = try repl.expect("deck (local)> ")
      #expect(Self.type(null) == S_IFCHR, "the device node is still a device node")
    } else {
      print("skipped the device node: mknod needs root")
    }

    try FileManager.default.createDirectory(atPath: deck.home + "/real", withIntermediateDirectories: true)
    try Data("old\n".utf8).write(to: URL(fileURLWithPath: deck.home + "/real/session.deck"))
    #expect(symlink("real/session.deck", deck.home + "/link.deck") == 0)
    repl.send("history --export \(deck.home)/link.deck\r")
    _ = try repl.expect("Wrote 1 command to \(deck.home)/link.deck")
    #expect(Self.type(deck.home + "/link.deck") == S_IFLNK, "the link stays a link")
    #expect(try String(contentsOfFile: deck.home + "/real/session.deck", encoding: .utf8).contains("env list"))

    repl.send("exit\r")
    #expect(try repl.waitForExit() == 0)
  }

  @Test func qaRunOutWritesIntoAFIFOAndReportsAFullDevice() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let file = deck.home + "/reads.yaml"
    try Data(Self.tagged.utf8).write(to: URL(fileURLWithPath: file))
    let fifo = try HeldFIFO(deck.home + "/report.fifo")
    defer { fifo.close() }
    let piped = try deck.run(["qa", "run", file, "--id", "reads", "--report", "tap", "--out", fifo.path])
    #expect(piped.status == 0, "\(piped.stderr)")
    #expect(Self.type(fifo.path) == S_IFIFO, "the FIFO is still a FIFO")
    #expect(fifo.drain().hasPrefix("TAP version 13"))

    guard let full = Self.device(deck.home + "/full", minor: 7) else {
      print("skipped the device node: mknod needs root")
      return
    }
    let refused = try deck.run(["qa", "run", file, "--id", "reads", "--report", "tap", "--out", full])
    #expect(refused.status == 1, "\(refused.stderr)")
    #expect(refused.stderr.contains("No space left on device"), "\(refused.stderr)")
    #expect(Self.type(full) == S_IFCHR, "the device node is still a device node")
  }
}
