import DeckSupport
import FoundationEssentials
import SandboxLaunch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The operating-system calls deck makes on processes and loopback sockets, in one place:
/// starting the local sandbox detached, replacing deck with the server program, checking a
/// process and asking a server for a quick answer.
public enum LocalProcess {
  /// posix_spawn's flags for a new session (no controlling terminal, its own process group)
  /// and, on macOS, for closing every descriptor not named in the file actions.
  #if os(Linux)
    private static let extraFlags: Int32 = 0x80  // POSIX_SPAWN_SETSID, glibc 2.26+
  #else
    private static let extraFlags: Int32 = 0x400 | 0x4000  // POSIX_SPAWN_SETSID | POSIX_SPAWN_CLOEXEC_DEFAULT
  #endif

  /// This program's file, symbolic links resolved: read from /proc/self/exe on Linux (one
  /// system call, where `Bundle.main` reads the bundle at every start: bench/README.md), from
  /// Foundation elsewhere.
  public static func ownExecutable() -> String? {
    #if os(Linux)
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
      guard count > 0 else { return nil }
      return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #else
      return Bundle.main.executableURL?.resolvingSymlinksInPath().path
    #endif
  }

  /// Whether `path` is a file this process may execute (`access(2)`, without FileManager).
  public static func isExecutableFile(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
  }

  /// Starts `executable` in a session of its own, with exactly `environment`, stdin from
  /// /dev/null and stdout and stderr appended to `log` (created 0600). Returns its pid.
  public static func spawnDetached(
    _ executable: String, arguments: [String], environment: [String: String], log: String
  ) throws -> pid_t {
    do {
      return try spawn(executable, arguments: arguments, environment: environment, flags: extraFlags) { actions in
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
      }
    } catch {
      throw DeckError(
        .unavailable(status: nil), "Cannot start \(executable): \(error.reason).",
        hint: "Reinstall deck (scripts/install), or point DECK_SANDBOX_PROGRAM at a deck-sandbox binary.")
    }
  }

  /// Starts `executable` as a child in a process group of its own (so that a timeout can stop
  /// it and whatever it started in the foreground), with exactly `environment`, stdin read from
  /// the file `input` and stdout and stderr written to the files `output` and `errors`
  /// (created 0600). `deck qa run` runs each step this way. Returns its pid; reap it with
  /// ``exitStatus(_:)``.
  public static func spawnChild(
    _ executable: String, arguments: [String], environment: [String: String],
    input: String, output: String, errors: String
  ) throws -> pid_t {
    do {
      return try spawn(executable, arguments: arguments, environment: environment, flags: Int32(POSIX_SPAWN_SETPGROUP))
      { actions in
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
      }
    } catch {
      throw DeckError(
        .failure, "Cannot start \(executable): \(error.reason).", hint: "Reinstall deck (scripts/install).")
    }
  }

  /// Starts `executable` in deck's own process group, on deck's terminal (stdin, stdout and
  /// stderr as deck has them): the user's editor. Returns its pid.
  public static func spawnForeground(
    _ executable: String, arguments: [String], environment: [String: String]
  ) throws(SpawnError) -> pid_t {
    try spawn(executable, arguments: arguments, environment: environment, flags: 0) { _ in }
  }

  /// Why posix_spawn failed (strerror's text).
  public struct SpawnError: Error {
    public var reason: String
  }

  /// Signal dispositions as they were before ``ignoreSignals(_:)``.
  public struct SavedSignals {
    fileprivate var saved: [(number: Int32, action: sigaction)] = []
  }

  /// Ignores `signals` (SIG_IGN), returning the dispositions to put back with
  /// ``restoreSignals(_:)``: while deck waits for its editor, or lets dispatch sources take them.
  public static func ignoreSignals(_ signals: [Int32]) -> SavedSignals {
    var ignore = sigaction()
    sigemptyset(&ignore.sa_mask)
    #if canImport(Glibc)
      ignore.__sigaction_handler.sa_handler = SIG_IGN
    #else
      ignore.__sigaction_u.__sa_handler = SIG_IGN
    #endif
    var saved = SavedSignals()
    for number in signals {
      var previous = sigaction()
      sigaction(number, &ignore, &previous)
      saved.saved.append((number, previous))
    }
    return saved
  }

  public static func restoreSignals(_ saved: SavedSignals) {
    for (number, action) in saved.saved {
      var action = action
      sigaction(number, &action, nil)
    }
  }

  /// posix_spawn with the file actions `files` adds, default signal dispositions and an empty
  /// mask (a child must not inherit an ignored SIGINT), `flags` besides, and nothing else of
  /// deck's open: every descriptor above stderr is close-on-exec. (The end-to-end tests'
  /// ChildProcess starts its children through this too.)
  package static func spawn(
    _ executable: String, arguments: [String], environment: [String: String], flags: Int32,
    files: (inout posix_spawn_file_actions_t) -> Void
  ) throws(SpawnError) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    files(&actions)
    markInheritedDescriptorsCloseOnExec()
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigdefault(&attributes, &all)
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    // With POSIX_SPAWN_SETPGROUP: a group of its own, led by the child (pgroup 0).
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes, Int16(truncatingIfNeeded: Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK) | flags))
    var pid: pid_t = 0
    let result = withExecArrays([executable] + arguments, environment) { argv, envp in
      posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    }
    guard result == 0 else { throw SpawnError(reason: String(cString: strerror(result))) }
    return pid
  }

  /// A child's exit code once it has ended (128 + the signal's number when a signal ended it,
  /// as shells report it), nil while it runs. Never blocks.
  public static func exitStatus(_ pid: pid_t) -> Int32? {
    var status: Int32 = 0
    let result = waitpid(pid, &status, WNOHANG)
    guard result == pid else { return result < 0 && errno == ECHILD ? 127 : nil }
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
  }

  /// Waits for a child to end (blocking the calling thread: run it through ``BlockingWork``)
  /// and returns its exit code, 128 + the signal's number when a signal ended it.
  public static func waitForExit(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { return 127 }
    }
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
  }

  /// Runs `executable` to its end with stdin from /dev/null, and returns its exit code and what
  /// it wrote to stdout and stderr (through files in a private temporary directory, so neither
  /// stream can fill a pipe and stall it). Blocks the calling thread.
  public static func capture(_ executable: String, arguments: [String], environment: [String: String]) throws
    -> (status: Int32, output: Data, errors: Data)
  {
    let directory = try SecureDirectory.makeTemporary(prefix: "deck-run-")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let output = directory + "/stdout"
    let errors = directory + "/stderr"
    let pid = try spawnChild(
      executable, arguments: arguments, environment: environment, input: "/dev/null", output: output, errors: errors)
    let status = waitForExit(pid)
    return (
      status, FileManager.default.contents(atPath: output) ?? Data(),
      FileManager.default.contents(atPath: errors) ?? Data()
    )
  }

  /// Sends `signal` to the process group a child from ``spawnChild`` leads.
  public static func signalGroup(_ pid: pid_t, _ signal: Int32) {
    guard pid > 0 else { return }
    kill(-pid, signal)
  }

  /// Nothing else deck has open (a pipe its caller passed on, a lock) may stay open in the
  /// server, which outlives deck: a shell reading deck's output would wait for the server's end.
  /// Marks every descriptor above stderr close-on-exec (deck itself execs nothing that needs one).
  /// (On macOS, POSIX_SPAWN_CLOEXEC_DEFAULT does it.)
  private static func markInheritedDescriptorsCloseOnExec() {
    #if os(Linux)
      let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap { Int32($0) }
      for descriptor in open ?? Array(3..<Int32(min(getdtablesize(), 4096))) where descriptor > 2 {
        let flags = fcntl(descriptor, F_GETFD)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
      }
    #endif
  }

  /// Replaces this process with `executable` (stdout and stderr flushed first). Returns only
  /// when that fails.
  public static func replace(
    with executable: String, arguments: [String], environment: [String: String]
  ) -> DeckError {
    fflush(nil)
    _ = withExecArrays([executable] + arguments, environment) { argv, envp in execve(executable, argv, envp) }
    return DeckError(
      .unavailable(status: nil), "Cannot run \(executable): \(String(cString: strerror(errno))).",
      hint: "Reinstall deck (scripts/install), or point DECK_SANDBOX_PROGRAM at a deck-sandbox binary.")
  }

  /// Whether a process with this id runs. A zombie has exited: a child of ours is reaped, and
  /// on Linux one whose parent has not reaped it yet (an init that reaps late) counts as gone.
  public static func isAlive(_ pid: pid_t) -> Bool {
    guard pid > 0 else { return false }
    var status: Int32 = 0
    if waitpid(pid, &status, WNOHANG) == pid { return false }
    guard kill(pid, 0) == 0 || errno == EPERM else { return false }
    #if os(Linux)
      // /proc/PID/stat: "PID (name) STATE …"; the name may hold spaces and parentheses.
      if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      {
        return stat[stat.index(after: close)...].trimming(.whitespaces).first != "Z"
      }
    #endif
    return true
  }

  /// Stops the process `pid` if it is the one that started at `start` (``ProcessStart``):
  /// SIGTERM, up to `grace` to end, then SIGKILL. A pid that another process has taken since,
  /// or a start the system cannot tell (nil), is left alone. Returns whether it had to be killed.
  @discardableResult
  public static func terminate(_ pid: pid_t, start: UInt64?, grace: Duration = .seconds(3)) -> Bool {
    guard let start, ProcessStart.of(pid) == start else { return false }
    kill(pid, SIGTERM)
    let deadline = ContinuousClock.now + grace
    while ContinuousClock.now < deadline {
      if ProcessStart.of(pid) != start { return false }
      usleep(10_000)
    }
    guard ProcessStart.of(pid) == start else { return false }
    kill(pid, SIGKILL)
    while ProcessStart.of(pid) == start, ContinuousClock.now < deadline + .seconds(2) { usleep(10_000) }
    return true
  }

  /// Runs `body` with the NULL-terminated C arrays that posix_spawn and execve take: the
  /// arguments (the program's name first) and the environment as NAME=VALUE.
  static func withExecArrays<T>(
    _ arguments: [String], _ environment: [String: String],
    _ body: ([UnsafeMutablePointer<CChar>?], [UnsafeMutablePointer<CChar>?]) -> T
  ) -> T {
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    return body(argv, envp)
  }
}
