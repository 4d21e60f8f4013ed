import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `deck sandbox serve`: loopback only unless asked, and its admin token reaching deck with no
/// manual step.
@Suite("deck sandbox serve", .endToEndTimeLimit)
struct ServeTests {
  @Test func aNonLoopbackHostIsRefusedUnlessAllowed() throws {
    let deck = try DeckCLI()
    let refused = try deck.run([
      "sandbox", "serve", "--host", "0.0.0.0", "--port", "0", "--db", deck.home + "/s.sqlite",
    ])
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("--allow-remote"))
    #expect(refused.stdout.isEmpty, "nothing listened")
  }

  /// serve takes deck's place, so a script (or the REPL) refuses it instead of ending.
  @Test func aScriptRefusesServeAndGoesOn() throws {
    let deck = try DeckCLI()
    let result = try deck.run(
      ["run", "-", "--keep-going"], stdin: "sandbox serve --port 0 --db \(deck.home)/s.sqlite\nenv list\n")
    #expect(result.status == 64, "\(result.all)")
    #expect(result.stderr.contains("Run it in another terminal"))
    #expect(result.stdout.contains("production"), "the next line ran")
  }

  /// A free loopback port (bound, read and released).
  static func freePort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    #expect(bound == 0)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// The server writes no file of deck's configuration: an environment that points at a
  /// `deck sandbox serve` of this user gets its admin token from the served record (once the
  /// server proves it holds it), with no manual step, and the config file is left as it was.
  @Test func anEnvironmentPointingAtAServedSandboxGetsItsTokenFromTheRecord() throws {
    let deck = try DeckCLI()
    let port = try Self.freePort()
    let url = "http://127.0.0.1:\(port)"
    #expect(try deck.run(["env", "add", "mine", "--from", "local"]).status == 0)
    var assignments = ["env", "set", "mine"]
    for service in ["flyr", "kiosk", "recruiting", "nudge", "auth", "geocoder"] {
      assignments.append("\(service)=\(url)")
    }
    #expect(try deck.run(assignments).status == 0)
    let config = deck.configDirectory + "/config.yml"
    let before = try String(contentsOfFile: config, encoding: .utf8)
    // The same user (same runtime directory) serves on that port.
    let serve = try deck.start(["sandbox", "serve", "--port", "\(port)", "--db", deck.home + "/served.sqlite"])
    #expect(serve.firstLine() == url)
    let record = deck.home + "/run/deck/served-127.0.0.1-\(port).json"
    #expect(eventually(timeout: 10) { FileManager.default.fileExists(atPath: record) })
    #expect(try String(contentsOfFile: config, encoding: .utf8) == before, "the server wrote deck's config")
    // No manual step: the operator commands work, and the token is never printed or traced.
    let status = try deck.run(["--env", "mine", "sandbox", "status", "--trace=body"])
    #expect(status.status == 0, "\(status.stderr)")
    let token = try #require(
      serve.child.stdout.split(separator: "\n").first { $0.hasPrefix("sandbox-admin-token=") }?
        .dropFirst("sandbox-admin-token=".count))
    #expect(!token.isEmpty)
    #expect(!status.all.contains(String(token)))
    #expect(!(try deck.run(["env", "show", "mine"]).all.contains(String(token))))
    #expect(try String(contentsOfFile: config, encoding: .utf8) == before, "nothing saved the token")
    // A wrong token is refused with the fix; an override of the URL does not get the token.
    #expect(try deck.run(["env", "set", "mine", "sandbox-admin-token=wrong"]).status == 0)
    let wrong = try deck.run(["--env", "mine", "sandbox", "status"])
    #expect(wrong.status == 77)
    #expect(wrong.stderr.contains("refused the admin token"))
    let overridden = try deck.run(
      ["--env", "mine", "sandbox", "status"], environment: ["DECK_AUTH_URL": "http://127.0.0.1:9"])
    #expect(overridden.status == 77)
    #expect(overridden.stderr.contains("DECK_AUTH_URL"))
    serve.interrupt()
    #expect(serve.wait(timeout: 10).status == 0)
  }

  /// A `deck sandbox serve` killed with SIGKILL leaves its record behind; the next one removes
  /// the records of servers that no longer run, so they do not pile up (and keeps its own).
  @Test func recordsOfKilledServersDoNotPileUp() throws {
    let deck = try DeckCLI()
    let first = try deck.start(["sandbox", "serve", "--port", "0", "--db", deck.home + "/one.sqlite"])
    let firstURL = first.firstLine()
    let directory = deck.home + "/run/deck"
    let firstRecord = "served-127.0.0.1-\(firstURL.split(separator: ":").last ?? "").json"
    #expect(eventually(timeout: 10) { FileManager.default.fileExists(atPath: directory + "/" + firstRecord) })
    kill(first.processIdentifier, SIGKILL)
    _ = first.wait(timeout: 10).status
    #expect(FileManager.default.fileExists(atPath: directory + "/" + firstRecord), "a killed server cannot clean up")
    let second = try deck.start(["sandbox", "serve", "--port", "0", "--db", deck.home + "/two.sqlite"])
    let secondURL = second.firstLine()
    let secondRecord = "served-127.0.0.1-\(secondURL.split(separator: ":").last ?? "").json"
    #expect(eventually(timeout: 10) { FileManager.default.fileExists(atPath: directory + "/" + secondRecord) })
    #expect(!FileManager.default.fileExists(atPath: directory + "/" + firstRecord), "the dead server's record stayed")
    second.interrupt()
    #expect(second.wait(timeout: 10).status == 0)
  }

  /// The server program's help lists its exit codes as deck's commands do, within 80 columns.
  @Test func theServerProgramsHelpListsItsExitCodes() throws {
    let deck = try DeckCLI()
    let help = try DeckCLI.execute(
      DeckCLI.sandboxBinary, ["--help"], stdin: nil, environment: deck.environment, in: deck.home)
    #expect(help.status == 0)
    #expect(
      help.stdout.contains("Exit codes:\n  0    stopped (Ctrl-C, SIGTERM or the idle timeout)\n"), "\(help.stdout)")
    #expect(help.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(help.stdout)")
  }
}
