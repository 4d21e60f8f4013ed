import DeckSupport
import FoundationEssentials
import SandboxLaunch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension LocalProcess {
  /// What a server at a loopback address says to a proof request (``SandboxProof``).
  public enum ProofOutcome: Equatable, Sendable {
    /// It holds the token.
    case proved
    /// It answered, but not with the token's proof: the HTTP status it answered.
    case notProved(status: Int)
    /// Nothing answered within the time (refused, hung or stopped).
    case noAnswer
  }

  /// Asks the server at `address` to prove that it holds `token` (a fresh nonce, no token
  /// sent). A server that answers the proof of another token, or none, has not proved it.
  public static func proof(of token: String, at address: LoopbackAddress, timeout: Duration) -> ProofOutcome {
    let nonce = SandboxProof.nonce()
    guard let answer = request(address, path: SandboxProof.path + "?nonce=" + nonce, timeout: timeout) else {
      return .noAnswer
    }
    guard answer.status == 200,
      SandboxProof.proof(inAnswer: answer.body)
        == SandboxProof.answer(
          adminToken: token, nonce: nonce)
    else { return .notProved(status: answer.status) }
    return .proved
  }

  /// `GET path` on `address` over a new connection, with `Connection: close`: the status code
  /// and the body (at most 64 KB; a chunked body is decoded), or nil when the server does not
  /// answer within `timeout` (refused, hung or stopped) or answers something that is not HTTP.
  public static func request(_ address: LoopbackAddress, path: String, timeout: Duration) -> (
    status: Int, body: [UInt8]
  )? {
    #if os(Linux)
      let stream = Int32(SOCK_STREAM.rawValue)
    #else
      let stream = SOCK_STREAM
    #endif
    let ipv6 = address.host.contains(":")
    let fd = socket(ipv6 ? AF_INET6 : AF_INET, stream, 0)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    let deadline = ContinuousClock.now + timeout
    let port = in_port_t(UInt16(clamping: address.port)).bigEndian
    let connected: Int32
    if ipv6 {
      var socketAddress = sockaddr_in6()
      socketAddress.sin6_family = sa_family_t(AF_INET6)
      socketAddress.sin6_port = port
      socketAddress.sin6_addr = in6addr_loopback
      connected = withUnsafePointer(to: &socketAddress) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
        }
      }
    } else {
      var socketAddress = sockaddr_in()
      socketAddress.sin_family = sa_family_t(AF_INET)
      socketAddress.sin_port = port
      socketAddress.sin_addr.s_addr = inet_addr("127.0.0.1")
      connected = withUnsafePointer(to: &socketAddress) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
    }
    guard connected == 0 || errno == EINPROGRESS, wait(fd, for: Int16(POLLOUT), until: deadline) else { return nil }
    var error: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 else { return nil }
    let request = Array("GET \(path) HTTP/1.1\r\nHost: \(address)\r\nConnection: close\r\n\r\n".utf8)
    guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == request.count else { return nil }
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    let limit = 65_536
    while answer.count < limit {
      guard wait(fd, for: Int16(POLLIN), until: deadline) else { break }
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count < 0, errno == EINTR || errno == EAGAIN { continue }
      guard count > 0 else { break }
      answer += buffer[0..<count]
    }
    return HTTPAnswer.parse(answer)
  }

  static func wait(_ fd: Int32, for events: Int16, until deadline: ContinuousClock.Instant) -> Bool {
    while true {
      let left = deadline - ContinuousClock.now
      guard left > .zero else { return false }
      var entry = pollfd(fd: fd, events: events, revents: 0)
      let milliseconds = Int32(
        clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
      let ready = poll(&entry, 1, milliseconds)
      if ready < 0, errno == EINTR { continue }
      return ready > 0
    }
  }
}

/// An HTTP/1.1 answer read whole off a socket: its status and body.
enum HTTPAnswer {
  /// nil when the bytes do not begin with a status line (`HTTP/1.x NNN`). Without a complete
  /// head the body is empty; a chunked body is decoded as far as it goes.
  static func parse(_ bytes: [UInt8]) -> (status: Int, body: [UInt8])? {
    let text = String(decoding: bytes.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    let words = text.split(separator: " ")
    guard words.count >= 2, words[0].hasPrefix("HTTP/"), words[1].utf8.count == 3, let status = Int(words[1]) else {
      return nil
    }
    let separator = Array("\r\n\r\n".utf8)
    guard let end = bytes.firstRange(of: separator) else { return (status, []) }
    let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).lowercased()
    let body = Array(bytes[end.upperBound...])
    let chunked = head.split(separator: "\r\n").contains {
      $0.hasPrefix("transfer-encoding:") && $0.contains("chunked")
    }
    return (status, chunked ? dechunk(body) : body)
  }

  /// The data of a chunked body, as far as it is complete.
  static func dechunk(_ body: [UInt8]) -> [UInt8] {
    var data: [UInt8] = []
    var index = 0
    let lineEnd = Array("\r\n".utf8)
    while index < body.count, let end = body[index...].firstRange(of: lineEnd) {
      let sizeText = String(decoding: body[index..<end.lowerBound], as: UTF8.self).prefix { $0 != ";" }
      guard let size = Int(String(sizeText).trimming(.whitespaces), radix: 16), size > 0,
        size <= body.count - end.upperBound
      else { break }
      data += body[end.upperBound..<(end.upperBound + size)]
      index = end.upperBound + size + 2
    }
    return data
  }
}
