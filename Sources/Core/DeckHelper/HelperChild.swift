import CHelper

#if canImport(Glibc)
  import Glibc
#endif

/// A child of the helper, just forked: it becomes the process the launcher would have
/// started (its fds, working directory, umask, signal dispositions, environment and argv).
public enum HelperChild {
  /// Reads the request on `connection`, closes `inherited` (the helper's own fds) and takes on
  /// the client's process state. Exits 70 (saying why on the client's stderr when it has it)
  /// if the request cannot be read.
  public static func adopt(_ connection: Int32, closing inherited: [Int32]) -> HelperRequest {
    for descriptor in inherited { close(descriptor) }
    // Its own process group: the launcher forwards terminal signals to the whole group (the
    // command and anything it starts), as the terminal would have sent them.
    setpgid(0, 0)
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var fds: [Int32] = [-1, -1, -1]
    var magic = [UInt8](repeating: 0, count: HelperRequest.magic.count)
    let count = magic.withUnsafeMutableBytes { deck_recv_three_fds(connection, $0.baseAddress, $0.count, &fds) }
    guard count > 0 else { _exit(70) }
    for (target, descriptor) in fds.enumerated() where descriptor != Int32(target) {
      dup2(descriptor, Int32(target))
      close(descriptor)
    }
    do throws(HelperProtocolError) {
      if count < magic.count { try readExactly(connection, into: &magic[count...]) }
      guard magic == HelperRequest.magic else { throw .malformed("it does not start with DK01") }
      var length = [UInt8](repeating: 0, count: 4)
      try readExactly(connection, into: &length[...])
      let size = length.reversed().reduce(0) { $0 << 8 | Int($1) }
      guard size <= HelperRequest.maximumSize else { throw .malformed("\(size) bytes is more than 16 MiB") }
      var payload = [UInt8](repeating: 0, count: size)
      try readExactly(connection, into: &payload[...])
      let request = try HelperRequest(payload: payload)
      try apply(request)
      return request
    } catch {
      let message = "\(error)\n"
      _ = message.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
      _exit(70)
    }
  }

  /// Tells the launcher to run the command itself (docs/HELPER.md, `E`) and exits.
  public static func handBack(_ connection: Int32) -> Never {
    HelperServer.send(connection, "E", nil)
    _exit(0)
  }

  static func apply(_ request: HelperRequest) throws(HelperProtocolError) {
    let entered = (request.workingDirectory + [0]).withUnsafeBufferPointer {
      $0.withMemoryRebound(to: CChar.self) { $0.baseAddress.map { chdir($0) } ?? -1 }
    }
    guard entered == 0 else {
      throw .io("cannot enter the working directory \(String(decoding: request.workingDirectory, as: UTF8.self))")
    }
    umask(mode_t(request.umask))
    var blocked = sigset_t()
    sigemptyset(&blocked)
    for signal in 1...64 where signal != SIGKILL && signal != SIGSTOP {
      var action = sigaction()
      action.__sigaction_handler.sa_handler =
        request.ignoredSignals & (1 << UInt64(signal - 1)) != 0 ? SIG_IGN : SIG_DFL
      sigemptyset(&action.sa_mask)
      // Fails harmlessly for the numbers glibc reserves for itself.
      _ = sigaction(Int32(signal), &action, nil)
      if request.blockedSignals & (1 << UInt64(signal - 1)) != 0 { sigaddset(&blocked, Int32(signal)) }
    }
    sigprocmask(SIG_SETMASK, &blocked, nil)
    clearenv()
    for entry in request.environment where entry.contains(UInt8(ascii: "=")) {
      // putenv keeps the pointer: the copy lives as long as the process.
      guard let copy = malloc(entry.count + 1)?.assumingMemoryBound(to: CChar.self) else { continue }
      for (index, byte) in entry.enumerated() { copy[index] = CChar(bitPattern: byte) }
      copy[entry.count] = 0
      putenv(copy)
    }
  }

  static func readExactly(_ connection: Int32, into buffer: inout ArraySlice<UInt8>) throws(HelperProtocolError) {
    var offset = buffer.startIndex
    while offset < buffer.endIndex {
      let count = buffer[offset...].withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else {
        throw .io(count == 0 ? "the launcher closed the connection" : String(cString: strerror(errno)))
      }
      offset += count
    }
  }
}
