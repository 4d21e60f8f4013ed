import DeckConfig
import DeckSupport
import FoundationEssentials
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS

/// Reads a server's TLS certificate, for `deck doctor`: connects, completes the handshake and
/// returns the leaf certificate's notAfter. The chain is not verified here (so an expired or
/// self-signed certificate can still be dated); deck's HTTP requests verify it as always.
public enum TLSProbe {
  public static func certificateExpiry(host: String, port: Int, timeout: Duration) async throws -> Date {
    let host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    var configuration = TLSConfiguration.makeClientConfiguration()
    configuration.certificateVerification = .none
    let context = try NIOSSLContext(configuration: configuration)
    // SNI takes a name, never an address literal.
    let serverName = IPAddress.v4(host) != nil || IPAddress.v6(host) != nil ? nil : host
    let loop = HTTPTransportFactory.eventLoopGroup.next()
    let handshake = loop.makePromise(of: Void.self)
    let milliseconds = max(
      1, timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
    let deadline = loop.scheduleTask(in: .milliseconds(milliseconds)) {
      handshake.fail(DeckError(.unavailable(status: nil), "the TLS handshake took longer than \(milliseconds) ms"))
    }
    defer { deadline.cancel() }
    let channel: any Channel
    do {
      channel = try await ClientBootstrap(group: loop)
        .connectTimeout(.milliseconds(milliseconds))
        .channelInitializer { channel in
          channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(
              try NIOSSLClientHandler(context: context, serverHostname: serverName))
            try channel.pipeline.syncOperations.addHandler(HandshakeWatcher(promise: handshake))
          }
        }
        .connect(host: host, port: port).get()
    } catch {
      handshake.fail(error)
      throw error
    }
    defer { channel.close(promise: nil) }
    try await handshake.futureResult.get()
    guard let certificate = try await channel.nioSSL_peerCertificate().get() else {
      throw DeckError(.failure, "\(host):\(port) sent no certificate")
    }
    return Date(timeIntervalSince1970: TimeInterval(certificate.notValidAfter))
  }
}

extension TLSProbe {
  /// Whether host:port accepts a TCP connection within `timeout`; the connection is closed at
  /// once, nothing is sent. For `deck doctor`, to tell a slow server from one that is not there.
  public static func acceptsConnection(host: String, port: Int, timeout: Duration) async -> Bool {
    let host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    let milliseconds = max(
      1, timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
    do {
      let channel = try await ClientBootstrap(group: HTTPTransportFactory.eventLoopGroup.next())
        .connectTimeout(.milliseconds(milliseconds))
        .connect(host: host, port: port).get()
      try? await channel.close()
      return true
    } catch {
      return false
    }
  }
}

/// Completes the promise when the TLS handshake is done, or fails it with the first error.
private final class HandshakeWatcher: ChannelInboundHandler, Sendable {
  typealias InboundIn = ByteBuffer
  let promise: EventLoopPromise<Void>

  init(promise: EventLoopPromise<Void>) { self.promise = promise }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if case .handshakeCompleted = event as? TLSUserEvent { promise.succeed() }
    context.fireUserInboundEventTriggered(event)
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    promise.fail(error)
    context.close(promise: nil)
  }

  func channelInactive(context: ChannelHandlerContext) {
    promise.fail(DeckError(.unavailable(status: nil), "the server closed the connection during the TLS handshake"))
    context.fireChannelInactive()
  }
}
