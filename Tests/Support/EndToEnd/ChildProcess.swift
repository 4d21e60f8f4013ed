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
package final class ChildProcess: @unchecked Sendable {
  package let process = Process()
  private let outPipe = Pipe()
  private let errPipe = Pipe()
  /// What the reader threads collect. They hold this, never the ChildProcess, so that its owner
  /// letting go of it runs deinit (which kills a child still running) instead of a cycle
  /// through the threads keeping a server alive past the test and the test run.
  private let streams = Streams()

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
    process.executableURL = URL(fileURLWithPath: try Self.locate(executable, environment: environment))
    process.arguments = arguments
    process.environment = environment
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    process.standardOutput = outPipe
    process.standardError = errPipe
    let input = Pipe()
    process.standardInput = input
    try process.run()
    for (pipe, isOut) in [(outPipe, true), (errPipe, false)] {
      let handle = pipe.fileHandleForReading
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
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
  }

  deinit {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
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
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      return nil
    }
    process.waitUntilExit()
    streams.condition.lock()
    while streams.open > 0 && streams.condition.wait(until: deadline) {}
    streams.condition.unlock()
    return process.terminationStatus
  }

  package func signal(_ number: Int32) { kill(process.processIdentifier, number) }
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
  package var processIdentifier: Int32 { child.process.processIdentifier }

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
