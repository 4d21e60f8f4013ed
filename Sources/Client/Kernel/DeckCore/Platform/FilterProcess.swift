import DeckSupport
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system calls of a filter child: a short-lived process that reads its input on stdin and
/// writes its results on stdout (deck's `--jq` evaluation, `JQFilter`). Whatever the child does
/// (a crash, a memory or CPU limit), the caller gets an ending to report, and goes on.
public enum FilterProcess {
  /// How a child ended.
  public struct Ending: Sendable, Equatable {
    /// Its exit code; nil when a signal ended it.
    public var exitCode: Int32?
    /// The signal that ended it, if one did.
    public var signal: Int32?
    /// Its peak resident memory.
    public var peakBytes: Int
    /// The CPU time it used (user and system).
    public var cpuSeconds: Double
    /// The start of what it wrote to stderr (8 KB at most).
    public var errors: String
    /// Why the parent killed it, if it did.
    public var stopped: Stop?
  }

  /// Why the parent killed a child.
  public enum Stop: Sendable, Equatable {
    /// `isCancelled` said so (Ctrl-C in the REPL cancels the line's task).
    case cancelled
    /// The deadline passed.
    case deadline
    /// The consumer of its output wanted no more.
    case consumer
  }

  /// Runs `executable` to its end: `input` on its stdin, its stdout handed to `output` as it
  /// comes (return false to stop the child), its stderr kept (8 KB). It runs in deck's process
  /// group (Ctrl-C at a terminal reaches it too), with default signal dispositions, an empty
  /// mask and exactly `environment`. It is killed when `isCancelled` says so (checked every
  /// 50 ms) or at `deadline`, if one is given. Blocks the calling thread.
  public static func run(
    _ executable: String, arguments: [String], environment: [String: String], input: [UInt8],
    deadline: ContinuousClock.Instant?, isCancelled: () -> Bool, output: ([UInt8]) -> Bool
  ) throws(LocalProcess.SpawnError) -> Ending {
    // stdin is a socket: a child that dies before reading it all gives EPIPE, not SIGPIPE.
    var stdinPair: [Int32] = [-1, -1]
    var stdoutPipe: [Int32] = [-1, -1]
    var stderrPipe: [Int32] = [-1, -1]
    defer { (stdinPair + stdoutPipe + stderrPipe).filter { $0 >= 0 }.forEach { close($0) } }
    #if os(Linux)
      let stream = Int32(SOCK_STREAM.rawValue)
    #else
      let stream = SOCK_STREAM
    #endif
    guard socketpair(AF_UNIX, stream, 0, &stdinPair) == 0, pipe(&stdoutPipe) == 0, pipe(&stderrPipe) == 0 else {
      throw LocalProcess.SpawnError(reason: String(cString: strerror(errno)))
    }
    for fd in stdinPair + stdoutPipe + stderrPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    #if !os(Linux)
      var one: Int32 = 1
      setsockopt(stdinPair[0], SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
    let pid = try LocalProcess.spawn(executable, arguments: arguments, environment: environment, flags: 0) {
      posix_spawn_file_actions_adddup2(&$0, stdinPair[1], 0)
      posix_spawn_file_actions_adddup2(&$0, stdoutPipe[1], 1)
      posix_spawn_file_actions_adddup2(&$0, stderrPipe[1], 2)
    }
    // The child's ends are the child's only: closed here, the parent sees its end of file.
    close(stdinPair[1])
    close(stdoutPipe[1])
    close(stderrPipe[1])
    (stdinPair[1], stdoutPipe[1], stderrPipe[1]) = (-1, -1, -1)
    for fd in [stdinPair[0], stdoutPipe[0], stderrPipe[0]] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    var stopped: Stop?
    var errors: [UInt8] = []
    var sent = 0
    var open = (input: true, output: true, errors: true)
    if input.isEmpty { shutdownInput(&stdinPair, &open.input) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while open.output || open.errors {
      if stopped == nil {
        if isCancelled() {
          stopped = .cancelled
        } else if let deadline, ContinuousClock.now >= deadline {
          stopped = .deadline
        }
        if stopped != nil { kill(pid, SIGKILL) }
      }
      var entries = [
        pollfd(fd: open.input ? stdinPair[0] : -1, events: Int16(POLLOUT), revents: 0),
        pollfd(fd: open.output ? stdoutPipe[0] : -1, events: Int16(POLLIN), revents: 0),
        pollfd(fd: open.errors ? stderrPipe[0] : -1, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&entries, nfds_t(entries.count), 50)
      if ready < 0, errno != EINTR { break }
      guard ready > 0 else { continue }
      if open.input, entries[0].revents != 0 {
        let count = input.withUnsafeBytes { bytes in
          send(stdinPair[0], bytes.baseAddress.map { $0 + sent }, bytes.count - sent, noSignal)
        }
        if count > 0 { sent += count }
        if sent == input.count || (count < 0 && errno != EAGAIN && errno != EINTR) {
          shutdownInput(&stdinPair, &open.input)
        }
      }
      if open.output, entries[1].revents != 0 {
        let count = buffer.withUnsafeMutableBytes { read(stdoutPipe[0], $0.baseAddress, $0.count) }
        if count > 0 {
          if stopped == nil, !output(Array(buffer[..<count])) {
            stopped = .consumer
            kill(pid, SIGKILL)
          }
        } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
          open.output = false
        }
      }
      if open.errors, entries[2].revents != 0 {
        let count = buffer.withUnsafeMutableBytes { read(stderrPipe[0], $0.baseAddress, $0.count) }
        if count > 0 {
          errors += buffer[..<min(count, max(0, 8192 - errors.count))]
        } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
          open.errors = false
        }
      }
    }
    return reap(pid, stopped: stopped, errors: errors)
  }

  /// send(2)'s flag for "EPIPE, not SIGPIPE" (macOS has none: there, the socket's SO_NOSIGPIPE).
  #if os(Linux)
    private static let noSignal = Int32(MSG_NOSIGNAL)
  #else
    private static let noSignal: Int32 = 0
  #endif

  /// Closes the parent's end of the child's stdin (the child reads end of file).
  private static func shutdownInput(_ pair: inout [Int32], _ open: inout Bool) {
    close(pair[0])
    pair[0] = -1
    open = false
  }

  /// Waits for the child and reads how it ended, with its resource use.
  private static func reap(_ pid: pid_t, stopped: Stop?, errors: [UInt8]) -> Ending {
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
    let signal = status & 0x7F
    let cpu =
      Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
      + Double(usage.ru_stime.tv_usec) / 1e6
    #if os(Linux)
      let peak = Int(usage.ru_maxrss) * 1024
    #else
      let peak = Int(usage.ru_maxrss)
    #endif
    return Ending(
      exitCode: signal == 0 ? (status >> 8) & 0xFF : nil, signal: signal == 0 ? nil : signal, peakBytes: peak,
      cpuSeconds: cpu, errors: String(decoding: errors, as: UTF8.self), stopped: stopped)
  }

  /// Limits this process (a filter child, first thing, before it reads its input): no core
  /// file, `cpuSeconds` of CPU time (then SIGXCPU; SIGKILL a second later), and `memoryBytes`
  /// of address space more than it has now (where the system enforces it: Linux), so that an
  /// allocation past it fails.
  public static func limitSelf(memoryBytes: Int, cpuSeconds: Int) {
    setLimit(RLIMIT_CORE, 0, 0)
    setLimit(RLIMIT_CPU, rlim_t(cpuSeconds), rlim_t(cpuSeconds + 1))
    #if os(Linux)
      if let size = addressSpaceBytes() {
        let limit = rlim_t(size + memoryBytes)
        setLimit(RLIMIT_AS, limit, limit)
      }
    #else
      let limit = rlim_t(memoryBytes)
      setLimit(RLIMIT_DATA, limit, limit)
    #endif
  }

  #if os(Linux)
    private static func setLimit(_ resource: __rlimit_resource, _ soft: rlim_t, _ hard: rlim_t) {
      var limit = rlimit(rlim_cur: soft, rlim_max: hard)
      setrlimit(__rlimit_resource_t(resource.rawValue), &limit)
    }

    /// The process's address space now, from /proc/self/statm (its first field, in pages).
    private static func addressSpaceBytes() -> Int? {
      let fd = open("/proc/self/statm", O_RDONLY)
      guard fd >= 0 else { return nil }
      defer { close(fd) }
      var buffer = [UInt8](repeating: 0, count: 128)
      let count = read(fd, &buffer, buffer.count)
      guard count > 0, let first = buffer[..<count].split(separator: UInt8(ascii: " ")).first,
        let pages = Int(String(decoding: first, as: UTF8.self))
      else { return nil }
      return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
  #else
    private static func setLimit(_ resource: Int32, _ soft: rlim_t, _ hard: rlim_t) {
      var limit = rlimit(rlim_cur: soft, rlim_max: hard)
      setrlimit(resource, &limit)
    }
  #endif

  /// A signal's name ("SIGSEGV"), or its number.
  public static func signalName(_ signal: Int32) -> String {
    switch signal {
    case SIGSEGV: "SIGSEGV"
    case SIGABRT: "SIGABRT"
    case SIGBUS: "SIGBUS"
    case SIGILL: "SIGILL"
    case SIGFPE: "SIGFPE"
    case SIGTRAP: "SIGTRAP"
    case SIGKILL: "SIGKILL"
    case SIGXCPU: "SIGXCPU"
    case SIGINT: "SIGINT"
    case SIGTERM: "SIGTERM"
    default: "signal \(signal)"
    }
  }
}
