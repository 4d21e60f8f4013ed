import CHelper

#if canImport(Glibc)
  import Glibc
#endif

/// The start-up helper (docs/HELPER.md): a warmed `deck-core` that forks one child per command
/// line a launcher sends it. The parent stays single-threaded and only accepts, forks, reaps
/// and reports; it never reads a request, so no client's environment or token is ever in it.
public struct HelperServer {
  public let socketPath: String
  /// Seconds with no command running after which the helper exits.
  public let idleSeconds: Int

  public init(socketPath: String, idleSeconds: Int) {
    self.socketPath = socketPath
    self.idleSeconds = idleSeconds
  }

  /// Takes the lock (or exits: another helper is starting), runs `warmUp`, waits to be the only
  /// thread, listens, and serves until idle. A child runs `child` with its connection and the
  /// fds it must not keep; `child` never returns. When the warm-up fails or threads remain,
  /// the helper still listens but answers every request with `E` (run it yourself), so
  /// launchers do not keep starting new helpers.
  public func serve(warmUp: () -> Bool, child: (Int32, [Int32]) -> Never) -> Never {
    let lockPath = socketPath + ".lock"
    let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard lock >= 0, flock(lock, LOCK_EX | LOCK_NB) == 0 else { exit(0) }
    _ = chdir("/")
    var safe = warmUp()
    safe = safe && Self.waitUntilSingleThreaded(seconds: 15)
    guard let listener = listen() else {
      unlink(lockPath)
      exit(1)
    }
    var identity = stat()
    _ = stat(socketPath, &identity)
    var running: [Running] = []
    var lastActivity = Self.now()
    while true {
      var descriptors = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
      for job in running {
        descriptors.append(pollfd(fd: job.pidfd, events: Int16(POLLIN), revents: 0))
        descriptors.append(pollfd(fd: job.connection, events: job.clientGone ? 0 : deck_pollrdhup(), revents: 0))
      }
      let timeout: Int32
      if running.isEmpty {
        // Wakes at least every few seconds to see whether its program is still there.
        let left = min(Double(idleSeconds) - (Self.now() - lastActivity), Self.executableCheckSeconds)
        timeout = left <= 0 ? 0 : Int32(left * 1000)
      } else {
        // Without a pidfd (an old kernel), exits are noticed by polling waitpid.
        timeout = running.contains { $0.pidfd < 0 } ? 50 : -1
      }
      let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
      if ready < 0 && errno != EINTR { exit(1) }
      // Idle, or its program was uninstalled or replaced (a launcher of the new one names
      // another socket): it removes its socket, if that is still its own, so no launcher
      // connects any more, hands back the ones that already did, and exits.
      if running.isEmpty, Self.now() - lastActivity >= Double(idleSeconds) || Self.executableRemoved() {
        var current = stat()
        if stat(socketPath, &current) == 0, current.st_ino == identity.st_ino, current.st_dev == identity.st_dev {
          unlink(socketPath)
        }
        Self.handBackWaiting(listener)
        unlink(lockPath)
        exit(0)
      }
      for (index, job) in running.enumerated() {
        let hangup = descriptors[2 + 2 * index].revents
        if !job.clientGone, hangup & (deck_pollrdhup() | Int16(POLLHUP) | Int16(POLLERR)) != 0 {
          // The client went away (killed, or its terminal closed): so does the command.
          kill(-job.pid, SIGTERM)
          kill(job.pid, SIGTERM)
          running[index].clientGone = true
        }
      }
      running = Self.reap(running)
      if running.isEmpty { lastActivity = Self.now() }
      if descriptors[0].revents & Int16(POLLIN) != 0 {
        let connection = deck_accept(listener)
        guard connection >= 0 else { continue }
        lastActivity = Self.now()
        var peer: uid_t = 0
        guard deck_peer_uid(connection, &peer) == 0, peer == getuid() else {
          close(connection)
          continue
        }
        guard safe else {
          Self.send(connection, "E", nil)
          close(connection)
          continue
        }
        fflush(nil)
        let pid = fork()
        if pid == 0 {
          child(connection, [listener, lock] + running.flatMap { [$0.pidfd, $0.connection] }.filter { $0 >= 0 })
        }
        guard pid > 0 else {
          Self.send(connection, "E", nil)
          close(connection)
          continue
        }
        Self.send(connection, "P", pid)
        running.append(Running(pid: pid, pidfd: deck_pidfd_open(pid), connection: connection))
      }
    }
  }

  struct Running {
    let pid: pid_t
    let pidfd: Int32
    let connection: Int32
    var clientGone = false
  }

  /// Reaps every child that has exited and tells its client how it ended.
  static func reap(_ running: [Running]) -> [Running] {
    var running = running
    while true {
      var status: Int32 = 0
      let pid = waitpid(-1, &status, WNOHANG)
      guard pid > 0 else { return running }
      guard let index = running.firstIndex(where: { $0.pid == pid }) else { continue }
      let job = running.remove(at: index)
      // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import.
      let signal = status & 0x7f
      if signal == 0 {
        send(job.connection, "X", (status >> 8) & 0xff)
      } else {
        send(job.connection, "S", signal)
      }
      if job.pidfd >= 0 { close(job.pidfd) }
      close(job.connection)
    }
  }

  /// Answers `E` (run it yourself) to every connection waiting to be accepted: a launcher
  /// that connected just before the helper exits runs its command in deck-core, instead of
  /// reading the end of the stream and failing with 70.
  static func handBackWaiting(_ listener: Int32) {
    var waiting = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
    while poll(&waiting, 1, 0) > 0 {
      let connection = deck_accept(listener)
      guard connection >= 0 else { return }
      send(connection, "E", nil)
      close(connection)
    }
  }

  /// How often an idle helper checks that its program is still installed.
  static let executableCheckSeconds = 5.0

  /// Whether this program's file is gone: removed, or replaced by a new build or install (the
  /// kernel then shows the path it was started from with " (deleted)").
  static func executableRemoved() -> Bool {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return false }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self).hasSuffix(" (deleted)")
  }

  /// Writes a record (`tag`, then a little-endian Int32 if any); a client that has gone is
  /// ignored (no SIGPIPE).
  static func send(_ connection: Int32, _ tag: Character, _ value: Int32?) {
    var bytes: [UInt8] = [tag.asciiValue ?? 0]
    if let value { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    _ = bytes.withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
  }

  /// Binds the socket under a temporary name and renames it into place, so a client never
  /// connects before it listens.
  func listen() -> Int32? {
    let temporary = "\(socketPath).\(getpid()).tmp"
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard temporary.utf8.count < capacity else { return nil }
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      buffer.copyBytes(from: temporary.utf8)
      buffer[temporary.utf8.count] = 0
    }
    let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard listener >= 0 else { return nil }
    unlink(temporary)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0, chmod(temporary, 0o600) == 0, Glibc.listen(listener, 64) == 0,
      rename(temporary, socketPath) == 0
    else {
      unlink(temporary)
      close(listener)
      return nil
    }
    return listener
  }

  /// Waits until this process has one thread (libdispatch's idle workers retire after about
  /// five seconds); fork is safe only then.
  static func waitUntilSingleThreaded(seconds: Double) -> Bool {
    let deadline = now() + seconds
    while true {
      if threadCount() == 1 { return true }
      if now() >= deadline { return false }
      usleep(50_000)
    }
  }

  /// The number of threads of this process (entries of /proc/self/task).
  public static func threadCount() -> Int {
    guard let directory = opendir("/proc/self/task") else { return -1 }
    defer { closedir(directory) }
    var count = 0
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { $0.first }
      if name != UInt8(ascii: ".") { count += 1 }
    }
    return count
  }

  /// The PATH of the helper and of its warm-up: its own environment is dropped (it came from
  /// the first launcher, and may hold a token).
  public static let minimalPath = "/usr/local/bin:/usr/bin:/bin"

  /// Empties this process's environment but for `minimalPath`.
  public static func resetEnvironment() {
    clearenv()
    setenv("PATH", minimalPath, 1)
  }

  static func now() -> Double {
    var clock = timespec()
    clock_gettime(CLOCK_MONOTONIC, &clock)
    return Double(clock.tv_sec) + Double(clock.tv_nsec) / 1e9
  }
}
