import NIOCore

/// How to run a sandbox server.
public struct SandboxOptions: Sendable {
  /// The SQLite file. Missing parent directories are created with mode 0700.
  public var databasePath: String
  /// The address to bind, "127.0.0.1" by default.
  public var host: String
  /// The port to bind; 0 picks an ephemeral port.
  public var port: Int
  /// The lifetime of access tokens, in seconds.
  public var accessTokenTTL: Int
  /// The base URL the links the sandbox hands out (checkout pages, join links) start with,
  /// e.g. `http://sandbox.example.test:8787`. Nil: `http://host:port` of the listening socket
  /// (127.0.0.1 when the host is a wildcard address). Never taken from a request's Host header.
  public var publicURL: String?
  /// The features the server has, in registry order (their tables, data and routes).
  package var features: [any SandboxFeature.Type]
  /// Failed password sign-ins a minute before 429 (``SignInThrottle``).
  package var signInLimits = SignInLimits.standard
  /// The web origins besides loopback ones whose pages may call the sandbox (``CORSMiddleware``).
  package var corsOrigins = CORSOrigins()
  /// Seconds after a refresh token is used during which it may be used again (GoTrue's
  /// `REFRESH_TOKEN_REUSE_INTERVAL`, 10 by default): two requests refreshing at once both succeed.
  package var refreshTokenReuseInterval = 10
  /// How long a connection may go without sending a complete request head, or stall in a
  /// request's body, before it is closed (``ConnectionLimits``).
  package var connectionTimeout = ConnectionLimits.defaultTimeout
  /// The event loops to serve on; nil: NIO's singleton group (a thread per core). The embedded
  /// sandbox shares the one thread of deck's HTTP client.
  package var eventLoopGroup: (any EventLoopGroup)?

  package init(
    databasePath: String, host: String = "127.0.0.1", port: Int = 0, accessTokenTTL: Int = 3600,
    publicURL: String? = nil, features: [any SandboxFeature.Type], eventLoopGroup: (any EventLoopGroup)? = nil,
    signInLimits: SignInLimits = .standard
  ) {
    self.databasePath = databasePath
    self.host = host
    self.port = port
    self.accessTokenTTL = accessTokenTTL
    self.publicURL = publicURL
    self.features = features
    self.eventLoopGroup = eventLoopGroup
    self.signInLimits = signInLimits
  }
}
