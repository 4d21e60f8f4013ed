import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The real `deck` binary on a pseudo-terminal: the child is a session leader whose
/// controlling terminal is the pty, so Ctrl-C typed into it is a real SIGINT, and readline
/// runs exactly as it does for a person.
package final class PseudoTerminal {
  package let master: Int32
  package let pid: pid_t
  /// Everything the program wrote, as read.
  private var bytes: [UInt8] = []
  private var buffer: String { String(decoding: bytes, as: UTF8.self) }
  /// What `expect` searches: the output without control sequences, up to the last complete
  /// character and escape sequence (a read can end inside either; counting a half-read one
  /// would shift `consumed` once the rest arrives and is stripped).
  private var stripped: [Character] {
    Array(Self.stripEscapes(String(decoding: bytes[..<Self.completeLength(bytes)], as: UTF8.self)))
  }
  private var consumed = 0
  /// The deck whose home the program runs in, kept for as long as the terminal: a test that
  /// starts a terminal from a temporary `DeckCLI` would otherwise remove the home (and its
  /// config and history) while the program still runs in it.
  private var deck: DeckCLI?

  /// `executable` (deck by default) with `arguments`, as the leader of a new session on the pty.
  package init(
    executable: String = DeckCLI.binary, arguments: [String], environment: [String: String], columns: UInt16 = 200,
    rows: UInt16 = 40
  ) throws {
    var master: Int32 = -1
    var slave: Int32 = -1
    var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
    guard openpty(&master, &slave, nil, nil, &size) == 0 else { throw PTYError.openFailed }
    // ttyname_r: ttyname's static buffer is shared by the tests that open terminals in parallel.
    var name = [CChar](repeating: 0, count: 256)
    guard ttyname_r(slave, &name, name.count) == 0 else { throw PTYError.openFailed }
    let slaveName = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    _ = fcntl(master, F_SETFD, FD_CLOEXEC)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // POSIX_SPAWN_SETSID (0x80): a new session, so the pty opened below becomes its terminal.
    posix_spawnattr_setflags(&attributes, Int16(0x80))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, slaveName, O_RDWR, 0)
    posix_spawn_file_actions_adddup2(&actions, 0, 1)
    posix_spawn_file_actions_adddup2(&actions, 0, 2)
    try ChildProcess.closeInherited(&actions)

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var child: pid_t = 0
    let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
    close(slave)
    guard status == 0 else { throw PTYError.spawnFailed(status) }
    self.master = master
    self.pid = child
  }

  /// `deck ARGUMENTS` as `deck` runs it, on an xterm, with readline's defaults (no inputrc).
  package convenience init(
    deck: DeckCLI, _ arguments: [String], environment extra: [String: String] = [:], columns: UInt16 = 200,
    rows: UInt16 = 40
  ) throws {
    var environment = deck.environment.merging(extra) { $1 }
    environment["TERM"] = "xterm"
    environment["INPUTRC"] = "/dev/null"
    try self.init(arguments: arguments, environment: environment, columns: columns, rows: rows)
    self.deck = deck
  }

  deinit {
    kill(pid, SIGKILL)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    close(master)
  }

  package func send(_ text: String) {
    var bytes = Array(text.utf8)
    _ = bytes.withUnsafeMutableBytes { write(master, $0.baseAddress, $0.count) }
  }

  /// Waits until the output after the last match contains `needle`; returns that output.
  @discardableResult
  package func expect(_ needle: String, timeout: TimeInterval = 15) throws -> String {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      let screen = stripped
      let text = String(screen[min(consumed, screen.count)...])
      if let range = text.range(of: needle) {
        let matched = String(text[..<range.upperBound])
        consumed += matched.count
        return matched
      }
      guard Date() < deadline else { throw PTYError.timeout(expected: needle, got: text) }
      readAvailable(until: deadline)
    }
  }

  /// Everything the program wrote so far, escape sequences and all.
  package var raw: String {
    readAvailable(until: Date().addingTimeInterval(0.05))
    return buffer
  }

  /// Everything the program wrote so far, without control sequences.
  package var screen: String { Self.stripEscapes(raw) }

  /// Everything printed since the last `expect`.
  package func pending(waiting seconds: TimeInterval = 0.3) -> String {
    readAvailable(until: Date().addingTimeInterval(seconds))
    let screen = stripped
    return String(screen[min(consumed, screen.count)...])
  }

  /// Waits for the process to exit and returns its exit status.
  package func waitForExit(timeout: TimeInterval = 15) throws -> Int32 {
    let deadline = Date().addingTimeInterval(timeout)
    var status: Int32 = 0
    while Date() < deadline {
      readAvailable(until: Date().addingTimeInterval(0.05))
      let result = waitpid(pid, &status, WNOHANG)
      if result == pid {
        if status & 0x7f == 0 { return (status >> 8) & 0xff }
        return 128 + (status & 0x7f)
      }
    }
    throw PTYError.timeout(expected: "exit", got: pending())
  }

  private func readAvailable(until deadline: Date) {
    var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    let milliseconds = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
    guard poll(&descriptor, 1, min(milliseconds, 100)) > 0 else { return }
    var chunk = [UInt8](repeating: 0, count: 4096)
    let count = read(master, &chunk, chunk.count)
    if count > 0 { bytes += chunk[0..<count] }
  }

  /// How many of `bytes` end on a whole UTF-8 character and a whole escape sequence.
  package static func completeLength(_ bytes: [UInt8]) -> Int {
    var end = bytes.count
    if let escape = bytes[max(0, end - 64)...].lastIndex(of: 0x1B) {
      let sequence = bytes[escape...].dropFirst()
      let complete: Bool
      switch sequence.first {
      case nil: complete = false
      // CSI: parameters, then a final byte in 0x40...0x7E.
      case UInt8(ascii: "["): complete = sequence.dropFirst().contains { (0x40...0x7E).contains($0) }
      case UInt8(ascii: "("), UInt8(ascii: ")"): complete = sequence.count >= 2
      default: complete = true
      }
      if !complete { end = escape }
    }
    var start = end - 1
    while start >= 0, end - start < 4, bytes[start] & 0xC0 == 0x80 { start -= 1 }
    if start >= 0, bytes[start] >= 0xC0 {
      let length = bytes[start] >= 0xF0 ? 4 : bytes[start] >= 0xE0 ? 3 : 2
      if end - start < length { end = start }
    }
    return end
  }

  /// Removes terminal control sequences and carriage returns.
  package static func stripEscapes(_ text: String) -> String {
    text.replacingOccurrences(
      of: "\u{1B}\\[[0-9;?]*[A-Za-z]|\u{1B}[()][A-Z0-9]|\u{1B}[=>]|[\r\u{07}\u{01}\u{02}]", with: "",
      options: .regularExpression)
  }

  package enum PTYError: Error {
    case openFailed
    case spawnFailed(Int32)
    case timeout(expected: String, got: String)
  }
}
