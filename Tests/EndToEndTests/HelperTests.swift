import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The start-up helper (docs/HELPER.md), through the real launcher: a one-shot runs in a child
/// of a warm `deck-core` and is indistinguishable from deck-core running it (output, exit code,
/// death by a signal, Ctrl-C); commands that own the terminal run in deck-core; the helper is
/// single-threaded when it forks, refuses an unsafe directory and exits when idle. Each test
/// has its own runtime directory, so its own helper. (Every other end-to-end test goes through
/// the launcher too, with the helper shared.)
@Suite("The start-up helper", .serialized, .timeLimit(.minutes(5)))
struct HelperTests {
  let deck: DeckCLI
  let runtime: String
  private let runtimeDirectory: TemporaryDirectory

  init() throws {
    var deck = try DeckCLI()
    // A short path: a socket's path has at most 107 bytes, and the launcher does not use a
    // helper whose socket path would be longer (a test's HOME is too deep for it).
    runtimeDirectory = try TemporaryDirectory(prefix: "dk-", short: true)
    runtime = runtimeDirectory.path
    chmod(runtime, 0o700)
    deck.environment["XDG_RUNTIME_DIR"] = runtime
    deck.environment["DECK_HELPER_IDLE"] = "20"
    self.deck = deck
  }

  /// The helper's socket, once one listens.
  var socket: String? {
    let directory = runtime + "/deck"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.first { $0.hasSuffix(".sock") }.map { directory + "/" + $0 }
  }

  /// Starts a helper (the first command starts one, and runs itself in deck-core) and waits
  /// until it listens, which it does once warm and single-threaded.
  func startHelper() throws -> String {
    #expect(try deck.run(["--version"]).status == 0)
    let deadline = Date().addingTimeInterval(120)
    while Date() < deadline {
      if let socket { return socket }
      usleep(50_000)
    }
    throw ChildProcess.Failure(description: "no helper listened in \(runtime)/deck within 120 s")
  }

  /// The helper's pid: the process started with this socket (its environment is cleared, but
  /// /proc keeps the one it was started with).
  func helperPID(socket: String) -> pid_t? {
    let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    for name in processes {
      guard let pid = pid_t(name),
        let environment = FileManager.default.contents(atPath: "/proc/\(name)/environ")
      else { continue }
      if environment.split(separator: 0).contains(where: { Data($0) == Data("DECK_HELPER_SOCKET=\(socket)".utf8) }) {
        return pid
      }
    }
    return nil
  }

  /// The programs a command line executed, by strace: the launcher, then deck-core if it ran.
  func programsExecuted(_ arguments: [String], stdin: String? = nil) throws -> (DeckCLI.Result, [String]) {
    let log = deck.home + "/execve.log"
    let result = try DeckCLI.execute(
      "/usr/bin/strace",
      ["-f", "-qq", "-o", log, "-e", "trace=execve", "-e", "signal=none", DeckCLI.binary] + arguments,
      stdin: stdin, environment: deck.environment, in: deck.home)
    let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
    let programs = lines.filter { $0.contains("execve(\"") && !$0.contains("ENOENT") }.compactMap {
      $0.split(separator: "\"").dropFirst().first.map(String.init)
    }
    return (result, programs)
  }

  @Test func aOneShotRunsInTheHelpersChildAndPrintsWhatDeckCorePrints() throws {
    try #require(
      FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"), "strace is missing: run scripts/setup")
    let socket = try startHelper()
    let pid = try #require(helperPID(socket: socket))
    // fork is safe only in a single-threaded process: the warm-up left no thread behind.
    #expect((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task"))?.count == 1)

    let (viaHelper, programs) = try programsExecuted(["brokerage", "search", "keller", "--json"])
    let direct = try deck.run(["brokerage", "search", "keller", "--json"], environment: ["DECK_HELPER": "0"])
    #expect(viaHelper.status == 0, "\(viaHelper.stderr)")
    #expect(viaHelper.stdout == direct.stdout)
    #expect(viaHelper.stdout.contains("Keller Williams"))
    // Only the launcher was executed: the search ran in a fork of the warm helper.
    #expect(programs == [DeckCLI.binary], "\(programs)")
    #expect((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task"))?.count == 1)
  }

  @Test func usageErrorsAndTheirExitCodesAreDeckCores() throws {
    _ = try startHelper()
    for line in [["nosuch"], ["brokerage", "search"], ["brokerage", "search", "x", "--limit", "zero"]] {
      let viaHelper = try deck.run(line)
      let direct = try deck.run(line, environment: ["DECK_HELPER": "0"])
      #expect(viaHelper.status == 64, "\(line): \(viaHelper.stderr)")
      #expect(viaHelper.status == direct.status && viaHelper.stderr == direct.stderr, "\(line)")
    }
  }

  /// Commands that own the terminal or run until stopped (here `run`) are handed back: the
  /// launcher runs deck-core itself, with its own stdin.
  @Test func aForegroundCommandRunsInDeckCore() throws {
    try #require(
      FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"), "strace is missing: run scripts/setup")
    _ = try startHelper()
    let (result, programs) = try programsExecuted(["run", "-"], stdin: "env list\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("sandbox"))
    #expect(programs == [DeckCLI.binary, DeckCLI.coreBinary], "\(programs)")
  }

  /// Ctrl-C on the terminal and a SIGTERM to the launcher reach the command, and the launcher
  /// ends as the command did (130 for Ctrl-C; death by SIGTERM), as deck-core alone does.
  @Test(arguments: ["ctrl-c", "sigterm"])
  func signalsReachTheCommandAndItsEndIsTheLaunchers(signal: String) throws {
    _ = try startHelper()
    let silent = try SilentServer()
    var statuses: [String: Int32] = [:]
    for helper in ["1", "0"] {
      let terminal = try PseudoTerminal(
        deck: deck, ["--env", "local", "brokerage", "search", "keller", "--timeout", "60"],
        environment: ["DECK_HELPER": helper, "DECK_FLYR_URL": "http://127.0.0.1:\(silent.port)"])
      // The request is sent and waits for an answer that never comes.
      let deadline = Date().addingTimeInterval(30)
      while silent.pendingConnections() == 0 && Date() < deadline { usleep(20_000) }
      #expect(silent.pendingConnections() > 0, "the search never connected")
      if signal == "ctrl-c" { terminal.send("\u{03}") } else { kill(terminal.pid, SIGTERM) }
      statuses[helper] = try terminal.waitForExit(timeout: 10)
      silent.drain()
    }
    #expect(statuses["1"] == statuses["0"], "\(statuses)")
    #expect(statuses["1"] == (signal == "ctrl-c" ? 130 : 128 + SIGTERM), "\(statuses)")
  }

  /// Ctrl-Z in a shell with job control stops the command, which runs in the helper's child,
  /// outside the terminal's process group; `fg` continues it, and the shell gets its status.
  @Test func ctrlZStopsTheCommandAndFgContinuesIt() throws {
    _ = try startHelper()
    let server = try SandboxProcess()
    var served = try DeckCLI(server: server)
    served.environment["XDG_RUNTIME_DIR"] = runtime
    // Every answer takes 1.5 s: the command is still waiting for it when it is stopped.
    #expect(try served.run(["sandbox", "delay", "1500"]).status == 0)
    var environment = served.environment
    environment["TERM"] = "dumb"
    environment["PS1"] = "deck-test$ "
    let shell = try PseudoTerminal(
      executable: "/bin/bash", arguments: ["--norc", "--noprofile", "-i"], environment: environment)
    try shell.expect("deck-test$ ")
    shell.send("\(DeckCLI.binary) brokerage search keller\n")
    usleep(300_000)
    shell.send("\u{1A}")
    try shell.expect("Stopped")
    try shell.expect("deck-test$ ")
    // The answer has come meanwhile, but a stopped command prints nothing.
    usleep(2_500_000)
    #expect(!shell.pending().contains("Keller Williams"), "the command went on while stopped")
    shell.send("fg\n")
    try shell.expect("Keller Williams", timeout: 20)
    try shell.expect("deck-test$ ")
    shell.send("echo status=$?\n")
    try shell.expect("status=0")
    shell.send("exit\n")
    #expect(try shell.waitForExit() == 0)
  }

  /// A runtime directory others can enter is not used: the command runs in deck-core, and no
  /// socket is made there.
  @Test func anUnsafeDirectoryIsNotUsed() throws {
    try FileManager.default.createDirectory(atPath: runtime + "/deck", withIntermediateDirectories: false)
    chmod(runtime + "/deck", 0o755)
    for _ in 0..<2 {
      let result = try deck.run(["--version"])
      #expect(result.status == 0)
    }
    usleep(500_000)
    #expect((try FileManager.default.contentsOfDirectory(atPath: runtime + "/deck")).isEmpty)
  }

  /// A runtime directory so deep that the socket's path would not fit: no helper, and the
  /// command still runs.
  @Test func aSocketPathTooLongForUnixSocketsRunsTheCommandInDeckCore() throws {
    let deep = runtime + "/" + String(repeating: "d", count: 60)
    try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: false)
    chmod(deep, 0o700)
    let result = try deck.run(["brokerage", "search", "keller"], environment: ["XDG_RUNTIME_DIR": deep])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Keller Williams"))
    usleep(500_000)
    #expect((try FileManager.default.contentsOfDirectory(atPath: deep + "/deck")).isEmpty)
  }

  /// Uninstalling deck (or installing or building a new one over it) removes the file the
  /// helper runs from: the helper exits within seconds instead of waiting out its idle time.
  @Test func theHelperExitsWhenItsProgramIsRemoved() throws {
    let installed = try TemporaryDirectory(prefix: "dk-bin-", short: true)
    for (source, name) in [(DeckCLI.binary, "deck"), (DeckCLI.coreBinary, "deck-core")] {
      // A second link to the built files (a copy where the temporary directory is on another
      // file system): removing it leaves the build alone.
      if link(source, installed.path + "/" + name) != 0 {
        try FileManager.default.copyItem(atPath: source, toPath: installed.path + "/" + name)
      }
    }
    var deck = deck
    deck.environment["DECK_HELPER_IDLE"] = "600"
    let launcher = installed.path + "/deck"
    let started = try DeckCLI.execute(
      launcher, ["--version"], stdin: nil, environment: deck.environment, in: deck.home)
    #expect(started.status == 0, "\(started.stderr)")
    var deadline = Date().addingTimeInterval(120)
    while socket == nil && Date() < deadline { usleep(50_000) }
    let listening = try #require(socket, "no helper started")
    #expect(
      try DeckCLI.execute(launcher, ["env", "list"], stdin: nil, environment: deck.environment, in: deck.home)
        .status == 0)
    unlink(installed.path + "/deck-core")
    deadline = Date().addingTimeInterval(30)
    while FileManager.default.fileExists(atPath: listening) && Date() < deadline { usleep(100_000) }
    #expect(!FileManager.default.fileExists(atPath: listening), "the helper outlived its program")
  }

  @Test func theHelperExitsWhenIdleAndRemovesItsSocket() throws {
    var deck = deck
    deck.environment["DECK_HELPER_IDLE"] = "1"
    #expect(try deck.run(["--version"]).status == 0)
    let deadline = Date().addingTimeInterval(120)
    var seen = false
    while Date() < deadline {
      let present = socket != nil
      seen = seen || present
      if seen && !present { break }
      usleep(50_000)
    }
    #expect(seen, "no helper started")
    #expect(socket == nil, "the helper did not exit when idle")
  }
}

/// A loopback TCP server that never accepts: a connection completes (the kernel's backlog)
/// and its request is never answered.
final class SilentServer {
  let fd: Int32
  let port: UInt16

  init() throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard fd >= 0, bound == 0, listen(fd, 16) == 0 else {
      if fd >= 0 { close(fd) }
      throw ChildProcess.Failure(description: "cannot listen on loopback")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    self.fd = fd
    port = UInt16(bigEndian: address.sin_port)
  }

  deinit { close(fd) }

  /// Connections waiting in the backlog (readable listener), without accepting them.
  func pendingConnections() -> Int {
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, 0) > 0 ? 1 : 0
  }

  /// Accepts and closes what is waiting, for the next round.
  func drain() {
    while pendingConnections() > 0 {
      let connection = accept(fd, nil, nil)
      if connection < 0 { return }
      close(connection)
    }
  }
}
