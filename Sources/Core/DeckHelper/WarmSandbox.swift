#if canImport(Glibc)
  import Glibc
#endif

/// The sandbox the helper's warm-up talks to: `deck-core sandbox serve --port 0`, another
/// process. The embedded sandbox cannot serve it (GRDB's async API runs on libdispatch worker
/// threads, and a libdispatch worker leaves a manager thread behind that never exits, so the
/// helper could never fork safely). Started with posix_spawn for the same reason: Foundation's
/// `Process` watches its child with a dispatch source.
public struct WarmSandbox {
  public let pid: pid_t
  /// The URL it listens on (the first line of its stdout).
  public let url: String
  /// Its stdout, kept open (and unread after the first line) until it stops, so its later
  /// lines never meet a closed pipe.
  private let output: Int32

  /// Starts `executable sandbox serve --port 0` with `home` as HOME and waits (at most
  /// `timeoutSeconds`) for the URL. Nil, with the server stopped, if it does not print one.
  public static func start(executable: String, home: String, timeoutSeconds: Int32 = 30) -> WarmSandbox? {
    var ends: [Int32] = [-1, -1]
    // (pipe2 needs _GNU_SOURCE; nothing else forks while the warm-up starts.)
    guard pipe(&ends) == 0 else { return nil }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let arguments: [String] = [executable, "sandbox", "serve", "--port", "0"]
    let environment: [String] = ["HOME=\(home)", "PATH=\(HelperServer.minimalPath)", "NO_COLOR=1"]
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
    close(ends[1])
    guard spawned == 0 else {
      close(ends[0])
      return nil
    }
    let sandbox = WarmSandbox(pid: pid, url: "", output: ends[0])
    guard let line = sandbox.firstLine(timeoutSeconds: timeoutSeconds),
      line.hasPrefix("http://127.0.0.1:")
    else {
      sandbox.stop()
      return nil
    }
    return WarmSandbox(pid: pid, url: line, output: ends[0])
  }

  /// Stops the server (SIGTERM, then SIGKILL after five seconds) and reaps it.
  public func stop() {
    kill(pid, SIGTERM)
    var status: Int32 = 0
    for _ in 0..<100 {
      let reaped = waitpid(pid, &status, WNOHANG)
      if reaped == pid || (reaped < 0 && errno != EINTR) {
        close(output)
        return
      }
      usleep(50_000)
    }
    kill(pid, SIGKILL)
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    close(output)
  }

  /// The first line of the server's stdout, without its newline.
  private func firstLine(timeoutSeconds: Int32) -> String? {
    var line: [UInt8] = []
    var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
    let deadline = time(nil) + Int(timeoutSeconds)
    while line.count < 4096 {
      let left = deadline - time(nil)
      guard left > 0 else { return nil }
      let ready = poll(&descriptor, 1, Int32(left) * 1000)
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { return nil }
      var byte: UInt8 = 0
      let count = read(output, &byte, 1)
      if count < 0 && errno == EINTR { continue }
      guard count == 1 else { return nil }
      if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
      line.append(byte)
    }
    return nil
  }
}
