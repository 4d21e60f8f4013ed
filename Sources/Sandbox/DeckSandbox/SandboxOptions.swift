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

  public init(databasePath: String, host: String = "127.0.0.1", port: Int = 0, accessTokenTTL: Int = 3600) {
    self.databasePath = databasePath
    self.host = host
    self.port = port
    self.accessTokenTTL = accessTokenTTL
  }
}
