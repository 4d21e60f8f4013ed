import DeckSupport
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child on a pseudo-terminal of its own: the leader of a new session whose controlling
/// terminal is the pty, so readline, prompts and colour behave as they do for a person at a
/// terminal. `deck qa run` drives a step's keys through it (``type(_:)``, ``available()``).
public final class LocalTerminal: Sendable {
  public let pid: pid_t
  /// The master side: what the child writes is read here, what is written here is typed.
  private let master: Int32

  /// Starts `executable` on a new pty of `columns` × `rows`, with exactly `environment`.
  public init(
    _ executable: String, arguments: [String], environment: [String: String], columns: UInt16 = 120, rows: UInt16 = 40
  ) throws {
    var master: Int32 = -1
    var slaveDescriptor: Int32 = -1
    var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
    guard openpty(&master, &slaveDescriptor, nil, nil, &size) == 0 else {
      throw Self.failure("cannot open a pseudo-terminal", errno)
    }
    // The child opens the terminal by its name, so that it becomes its controlling terminal.
    defer { close(slaveDescriptor) }
    var name = [CChar](repeating: 0, count: 256)
    guard ttyname_r(slaveDescriptor, &name, name.count) == 0 else {
      close(master)
      throw Self.failure("cannot name the pseudo-terminal", errno)
    }
    _ = fcntl(master, F_SETFD, FD_CLOEXEC)
    _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    let slave = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    do {
      // A new session (POSIX_SPAWN_SETSID), so the terminal opened first becomes its own; its
      // process group is its pid, as for ``LocalProcess/spawnChild``.
      pid = try LocalProcess.spawn(executable, arguments: arguments, environment: environment, flags: 0x80) {
        posix_spawn_file_actions_addopen(&$0, 0, slave, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&$0, 0, 1)
        posix_spawn_file_actions_adddup2(&$0, 0, 2)
      }
    } catch {
      close(master)
      throw DeckError(
        .failure, "Cannot start \(executable): \(error.reason).", hint: "Reinstall deck (scripts/install).")
    }
    self.master = master
  }

  deinit { close(master) }

  /// Types `text`; false when the terminal no longer takes input.
  @discardableResult
  public func type(_ text: String) -> Bool {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
      if written > 0 {
        bytes = bytes.dropFirst(written)
      } else if written < 0 && (errno == EAGAIN || errno == EINTR) {
        usleep(1000)
      } else {
        return false
      }
    }
    return true
  }

  /// What the child wrote since the last read (empty when nothing is waiting). Never blocks.
  public func available() -> [UInt8] {
    var collected: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(master, &chunk, chunk.count)
      guard count > 0 else { return collected }
      collected += chunk[0..<count]
    }
  }

  /// Everything the child wrote and the terminal still holds, once the child has exited: reads
  /// until the terminal reports its end (the kernel can still be passing the last output on
  /// when the child is reaped), at most `patience`.
  public func remaining(patience: Duration = .milliseconds(500)) -> [UInt8] {
    var collected: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    let deadline = ContinuousClock.now + patience
    while ContinuousClock.now < deadline {
      let count = read(master, &chunk, chunk.count)
      if count > 0 {
        collected += chunk[0..<count]
      } else if count < 0 && (errno == EAGAIN || errno == EINTR) {
        usleep(1000)
      } else {
        break
      }
    }
    return collected
  }

  static func failure(_ what: String, _ error: Int32) -> DeckError {
    DeckError(.failure, "Cannot start a step on a terminal: \(what) (\(String(cString: strerror(error)))).")
  }
}
