import Foundation
import Testing

@testable import DeckHelper

#if canImport(Glibc)
  import Glibc
#endif

/// A helper that exits (idle, or its deck-core removed) answers the launchers already waiting
/// on its socket with `E`, so they run their command in deck-core instead of failing.
@Suite("Helper exit")
struct HelperExitTests {
  /// A client connected to `path`, not yet accepted.
  func connect(to path: String) throws -> Int32 {
    let client = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      buffer.copyBytes(from: path.utf8)
      buffer[path.utf8.count] = 0
    }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(client, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    try #require(client >= 0 && connected == 0, "cannot connect to \(path)")
    // A connection nobody answers fails the test instead of hanging it.
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    return client
  }

  @Test func launchersWaitingWhenTheHelperExitsAreHandedBack() throws {
    let directory = "/tmp/dk-exit-\(getpid())"
    mkdir(directory, 0o700)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let server = HelperServer(socketPath: directory + "/helper.sock", idleSeconds: 1)
    let listener = try #require(server.listen())
    defer { close(listener) }
    let clients = try (0..<3).map { _ in try connect(to: server.socketPath) }
    defer { clients.forEach { close($0) } }

    HelperServer.handBackWaiting(listener)

    for client in clients {
      var tag: UInt8 = 0
      #expect(read(client, &tag, 1) == 1)
      #expect(tag == UInt8(ascii: "E"))
      #expect(read(client, &tag, 1) == 0, "then the end of the stream")
    }
    // Nobody is waiting now: it returns at once.
    HelperServer.handBackWaiting(listener)
  }
}
