import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A plain TCP connection to a loopback server, for tests that speak HTTP byte by byte (a slow
/// request head, a body sent after the answer) where a URL session would not.
package final class RawConnection {
  private let descriptor: Int32

  /// Connects to 127.0.0.1:`port`; reads wait at most `readTimeout` seconds each.
  package init(port: Int, readTimeout: Int = 1) throws {
    descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw Failure("socket: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(descriptor)
      throw Failure("connect: errno \(errno)")
    }
    var timeout = timeval(tv_sec: readTimeout, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    #if canImport(Darwin)
      // A send to a closed connection fails with EPIPE instead of killing the test process.
      var one: Int32 = 1
      setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
  }

  deinit { close(descriptor) }

  /// Sends `bytes`; false once the server has closed or reset the connection.
  @discardableResult
  package func send(_ bytes: Data) -> Bool {
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return true }
      return Self.send(descriptor, base, buffer.count) == buffer.count
    }
  }

  @discardableResult
  package func send(_ text: String) -> Bool { send(Data(text.utf8)) }

  /// What the connection reads now: bytes, the end (the server closed it), or nothing within
  /// the read timeout.
  package enum Read: Equatable {
    case bytes(Data)
    case closed
    case nothing
  }

  package func read() -> Read {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let count = recv(descriptor, &buffer, buffer.count, 0)
    if count > 0 { return .bytes(Data(buffer[0..<count])) }
    if count == 0 { return .closed }
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .nothing : .closed
  }

  /// Reads until the server closes the connection, or `timeout` seconds pass; returns what it
  /// read and whether it closed.
  package func readUntilClosed(timeout: TimeInterval) -> (data: Data, closed: Bool) {
    let deadline = Date().addingTimeInterval(timeout)
    var data = Data()
    while Date() < deadline {
      switch read() {
      case .bytes(let bytes): data += bytes
      case .closed: return (data, true)
      case .nothing: continue
      }
    }
    return (data, false)
  }

  /// send(2) that fails with EPIPE rather than raising SIGPIPE.
  private static func send(_ descriptor: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.send(descriptor, base, count, Int32(MSG_NOSIGNAL))
    #else
      Darwin.send(descriptor, base, count, 0)
    #endif
  }

  package struct Failure: Error, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
  }
}

/// Runs blocking work (socket reads, a child process) on a thread of its own. A test that
/// blocks a thread of the cooperative pool (two on two cores) holds up every other test of the
/// run: the ones that time their work fail, and a `Task.sleep` resumes minutes late.
package func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try work() }) }.start()
  }
}
