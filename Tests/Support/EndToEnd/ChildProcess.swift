import DeckCore
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Every process the end-to-end tests start (deck one-shot, `deck sandbox serve`, a deck left
/// running, curl, zbarimg), but for the pseudo-terminal ones: stdin is written up front, stdout
/// and stderr are read as they come by two reader threads (so a chatty child never blocks on a
/// full pipe), every wait has a deadline that fires, and a child still running when its owner
/// goes away is killed and reaped.
///
/// posix_spawn and waitpid, not Foundation's Process: Process learns of its child's exit on a
/// dispatch thread of the pool the tests themselves run on, so with every thread of that pool
/// waiting on a child (2 on a 2-core machine) nobody was left to report an exit, and the whole
/// end-to-end run stalled until the tests' time limits.
package final class ChildProcess: @unchecked Sendable {
  /// The child's process id.
  package let processIdentifier: pid_t
  /// The program and its arguments, for messages.
  package let commandLine: String
  /// What the reader threads collect. They hold this, never the ChildProcess, so that its owner
  /// letting go of it runs deinit (which kills a child still running) instead of a cycle
  /// through the threads keeping a server alive past the test and the test run.
  private let streams = Streams()
  /// The wait status once the child is reaped (guarded by `reaping`).
  private var reaped: Int32?
  private let reaping = NSLock()

  private final class Streams: @unchecked Sendable {
    // Guarded by condition.
    package let condition = NSCondition()
    package var out = Data()
    package var err = Data()
    package var open = 2
  }

  package struct Failure: Error, CustomStringConvertible {
    package var description: String
  }

  /// Starts `executable` (a path, or a name looked up on PATH) with `arguments`.
  package init(
    _ executable: String, _ arguments: [String], environment: [String: String], directory: String? = nil,
    stdin: String? = nil
  ) throws {
    let path = try Self.locate(executable, environment: environment)
    let pipes = try (0..<3).map { _ in try Self.pipe() }
    let pid: pid_t
    do {
      pid = try Self.spawn(path, arguments, environment: environment, directory: directory) { actions in
        posix_spawn_file_actions_adddup2(&actions, pipes[0].read, 0)
        posix_spawn_file_actions_adddup2(&actions, pipes[1].write, 1)
        posix_spawn_file_actions_adddup2(&actions, pipes[2].write, 2)
      }
    } catch {
      for pipe in pipes {
        close(pipe.read)
        close(pipe.write)
      }
      throw error
    }
    close(pipes[0].read)
    close(pipes[1].write)
    close(pipes[2].write)
    let (input, output, errors) = (pipes[0].write, pipes[1].read, pipes[2].read)
    processIdentifier = pid
    commandLine = ([path] + arguments).joined(separator: " ")
    for (descriptor, isOut) in [(output, true), (errors, false)] {
      let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
      let streams = self.streams
      Thread {
        while true {
          let chunk = handle.availableData
          streams.condition.lock()
          if chunk.isEmpty {
            streams.open -= 1
          } else if isOut {
            streams.out += chunk
          } else {
            streams.err += chunk
          }
          streams.condition.broadcast()
          streams.condition.unlock()
          if chunk.isEmpty { return }
        }
      }.start()
    }
    let writer = FileHandle(fileDescriptor: input, closeOnDealloc: true)
    // A child that exits without reading its stdin must not end the test run with SIGPIPE.
    Glibc.signal(SIGPIPE, SIG_IGN)
    if let stdin { try? writer.write(contentsOf: Data(stdin.utf8)) }
    try? writer.close()
  }

  deinit {
    if isRunning {
      kill(processIdentifier, SIGKILL)
      _ = reap(blocking: true)
    }
  }

  /// The wait status, reaping the child once it has ended; nil while it runs (never blocks
  /// unless `blocking`).
  private func reap(blocking: Bool) -> Int32? {
    reaping.withLock {
      if let reaped { return reaped }
      var status: Int32 = 0
      while true {
        let result = waitpid(processIdentifier, &status, blocking ? 0 : WNOHANG)
        if result == processIdentifier {
          reaped = status
          return status
        }
        if result < 0 && errno == EINTR { continue }
        if result < 0 {
          // Not our child any more (reaped elsewhere): it has ended, with an unknown status.
          reaped = 127 << 8
          return reaped
        }
        return nil
      }
    }
  }

  /// Whether the child still runs.
  package var isRunning: Bool { reap(blocking: false) == nil }

  /// Its exit code, or the number of the signal that ended it (as Foundation's Process gives
  /// it); nil while it runs.
  package var terminationStatus: Int32? {
    guard let status = reap(blocking: false) else { return nil }
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : signal
  }

  /// The path of `name`: itself when it has a slash, else the first match on PATH. A missing
  /// tool fails the test with what to install.
  package static func locate(_ name: String, environment: [String: String]) throws -> String {
    if name.contains("/") { return name }
    let path = environment["PATH"] ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    let packages = ["zbarimg": "zbar-tools", "curl": "curl", "python3": "python3"]
    throw Failure(
      description:
        "\(name) is not on PATH (\(path)); this test needs it: apt-get install \(packages[name] ?? name) (./scripts/setup installs it)"
    )
  }

  package var stdout: String { streams.condition.withLock { String(decoding: streams.out, as: UTF8.self) } }
  package var stderr: String { streams.condition.withLock { String(decoding: streams.err, as: UTF8.self) } }

  /// Waits until stdout satisfies `done` (or the deadline passes, or stdout ends); returns stdout.
  @discardableResult
  package func waitForStdout(timeout: TimeInterval = 60, until done: (String) -> Bool) -> String {
    let deadline = Date().addingTimeInterval(timeout)
    streams.condition.lock()
    defer { streams.condition.unlock() }
    while true {
      let text = String(decoding: streams.out, as: UTF8.self)
      if done(text) || streams.open == 0 || !streams.condition.wait(until: deadline) { return text }
    }
  }

  /// The first `count` lines of stdout, waiting for them; fewer if the deadline passes first.
  package func lines(_ count: Int, timeout: TimeInterval = 60) -> [String] {
    let text = waitForStdout(timeout: timeout) { $0.count(where: { $0 == "\n" }) >= count }
    return Array(text.split(separator: "\n", omittingEmptySubsequences: false).prefix(count).map(String.init))
  }

  /// Waits for the process to exit and its output to end; nil when the deadline passes first
  /// (the process is then killed).
  package func wait(timeout: TimeInterval = 120) -> Int32? {
    let deadline = Date().addingTimeInterval(timeout)
    while isRunning && Date() < deadline { usleep(10_000) }
    if isRunning {
      kill(processIdentifier, SIGKILL)
      _ = reap(blocking: true)
      return nil
    }
    streams.condition.lock()
    while streams.open > 0 && streams.condition.wait(until: deadline) {}
    streams.condition.unlock()
    return terminationStatus
  }

  package func signal(_ number: Int32) {
    if isRunning { kill(processIdentifier, number) }
  }

  /// SIGTERM, as Foundation's `Process.terminate()`.
  package func terminate() { signal(SIGTERM) }
  /// SIGINT, as Foundation's `Process.interrupt()`.
  package func interrupt() { signal(SIGINT) }

  private static func pipe() throws -> (read: Int32, write: Int32) {
    var ends: [Int32] = [0, 0]
    guard Glibc.pipe(&ends) == 0 else { throw Failure(description: "pipe: \(String(cString: strerror(errno)))") }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return (ends[0], ends[1])
  }

  /// glibc's posix_spawn_file_actions_addchdir_np (2.29+), which Swift's Glibc module does not
  /// import.
  private typealias AddChdir =
    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
  private static let addChdir: AddChdir? = dlsym(nil, "posix_spawn_file_actions_addchdir_np").map {
    unsafeBitCast($0, to: AddChdir.self)
  }
  /// glibc's posix_spawn_file_actions_addclosefrom_np (2.34+): the child gets stdin, stdout
  /// and stderr and nothing else the test process has open (a file another test is writing,
  /// which would then be "Text file busy" to exec, or another child's pipe, whose reader would
  /// wait for this child's end).
  private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
  private static let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
    unsafeBitCast($0, to: AddCloseFrom.self)
  }

  private static func closeFrom() throws -> AddCloseFrom {
    guard let addCloseFrom else {
      throw Failure(description: "this libc (glibc before 2.34) cannot close what a child inherits")
    }
    return addCloseFrom
  }

  /// Adds to `actions`: close every descriptor above stderr in the child.
  package static func closeInherited(_ actions: inout posix_spawn_file_actions_t) throws {
    _ = try closeFrom()(&actions, 3)
  }

  /// LocalProcess.spawn (default signal dispositions, an empty mask), with `files`, nothing
  /// inherited above stderr, and `directory` as the child's working directory.
  private static func spawn(
    _ path: String, _ arguments: [String], environment: [String: String], directory: String?,
    files: (inout posix_spawn_file_actions_t) -> Void
  ) throws -> pid_t {
    let closeFrom = try closeFrom()
    if let directory, addChdir == nil {
      throw Failure(description: "this libc cannot start a child in \(directory)")
    }
    do {
      return try LocalProcess.spawn(path, arguments: arguments, environment: environment, flags: 0) { actions in
        files(&actions)
        _ = closeFrom(&actions, 3)
        if let directory, let addChdir { _ = addChdir(&actions, directory) }
      }
    } catch {
      throw Failure(description: "cannot start \(path): \(error.reason)")
    }
  }
}

extension NSCondition {
  fileprivate func withLock<T>(_ body: () -> T) -> T {
    lock()
    defer { unlock() }
    return body()
  }
}

/// A python3 server a test starts (`python3 -c SCRIPT ARGUMENTS…`): it prints its port on
/// its first line.
package final class PythonServer: Sendable {
  package let child: ChildProcess
  package let port: Int

  package init(_ script: String, arguments: [String] = []) throws {
    child = try ChildProcess(
      "python3", ["-c", Self.exitWithParent + script] + arguments, environment: ProcessInfo.processInfo.environment)
    guard let port = Int(child.lines(1, timeout: 30).first?.trimmingCharacters(in: .whitespaces) ?? "") else {
      child.signal(SIGKILL)
      throw StartError(output: child.stdout + child.stderr)
    }
    self.port = port
  }

  package struct StartError: Error { var output: String }

  /// The process id of the server.
  package var processIdentifier: Int32 { child.processIdentifier }

  /// Put before every script: the server exits when the test run that started it does (even
  /// one that crashed or was killed, and so never let go of its PythonServer).
  package static let exitWithParent = """
    import os as _os, threading as _threading, time as _time
    _parent = _os.getppid()
    def _exit_with_parent():
        while _os.getppid() == _parent:
            _time.sleep(0.5)
        _os._exit(0)
    _threading.Thread(target=_exit_with_parent, daemon=True).start()

    """
}
