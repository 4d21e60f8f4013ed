import DeckSupport
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One signed-in account's tokens.
public struct StoredSession: Codable, Sendable, Equatable {
  public var email: String
  public var accessToken: String
  public var refreshToken: String?
  /// When the access token expires (from the server's `expires_at`, or the JWT's `exp`).
  public var expiresAt: Date?
  /// The origins (`scheme://host:port`, see `AuthMiddleware.origin`) the environment had when
  /// the token was stored: the only ones it is sent to. nil in files written before deck
  /// recorded them (then the environment's configured origins apply); `host` or `host:port` in
  /// files written before deck recorded schemes (`AuthMiddleware.origins(ofStoredKey:)`).
  public var origins: [String]?

  public init(email: String, accessToken: String, refreshToken: String?, expiresAt: Date?, origins: [String]? = nil) {
    self.email = email
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.expiresAt = expiresAt
    self.origins = origins
  }

  enum CodingKeys: String, CodingKey {
    case email
    case accessToken = "access_token"
    case refreshToken = "refresh_token"
    case expiresAt = "expires_at"
    case origins
  }

  /// True when the access token is expired, or expires within `leeway` seconds.
  public func isExpired(now: Date = Date(), leeway: TimeInterval = 30) -> Bool {
    guard let expiresAt = expiresAt ?? JWTClaims(token: accessToken)?.expiresAt else { return false }
    return expiresAt.timeIntervalSince(now) <= leeway
  }
}

/// The accounts of one environment; one of them is active, like `gh auth`.
public struct EnvironmentAccounts: Codable, Sendable, Equatable {
  public var active: String?
  public var accounts: [String: StoredSession]

  public init(active: String? = nil, accounts: [String: StoredSession] = [:]) {
    self.active = active
    self.accounts = accounts
  }

  public var activeSession: StoredSession? { active.flatMap { accounts[$0] } }
}

/// The token file: `tokens.json` in deck's config directory, mode 0600 in a 0700 directory.
///
/// A file that group or others can read is refused, as ssh refuses a readable private key.
public struct TokenStore: Sendable {
  public let path: String

  public init(path: String) { self.path = path }

  struct FileContents: Codable {
    var version = 1
    var environments: [String: EnvironmentAccounts] = [:]
  }

  public func accounts(in environment: String) throws -> EnvironmentAccounts {
    try read().environments[environment] ?? EnvironmentAccounts()
  }

  /// Stores a session and makes it the environment's active account.
  public func save(_ session: StoredSession, in environment: String) throws {
    try update { contents in
      var accounts = contents.environments[environment] ?? EnvironmentAccounts()
      accounts.accounts[session.email] = session
      accounts.active = session.email
      contents.environments[environment] = accounts
    }
  }

  /// Replaces an account's tokens (after a refresh) without changing which account is active.
  public func replace(_ session: StoredSession, in environment: String) throws {
    try update { contents in
      var accounts = contents.environments[environment] ?? EnvironmentAccounts()
      accounts.accounts[session.email] = session
      if accounts.active == nil { accounts.active = session.email }
      contents.environments[environment] = accounts
    }
  }

  /// Refreshes an account's expired session once across processes. Refresh tokens are
  /// single-use, so under the token file's lock this re-reads the file: when another deck
  /// process has already replaced the expired access token, its session is used as is;
  /// otherwise `renew` exchanges the latest stored refresh token and the result is stored
  /// (keeping the account's origins) before the lock is released.
  public func refresh(
    _ stale: StoredSession, in environment: String, renew: (StoredSession) async throws -> StoredSession
  ) async throws -> StoredSession {
    try AtomicFile.ensureDirectory(PathText.parent(path), mode: 0o700)
    return try await FileLock(for: path).withLock {
      let latest = try read().environments[environment]?.accounts[stale.email] ?? stale
      if latest.accessToken != stale.accessToken && !latest.isExpired(leeway: 0) { return latest }
      var renewed = try await renew(latest)
      renewed.origins = renewed.origins ?? latest.origins
      try write { contents in
        var accounts = contents.environments[environment] ?? EnvironmentAccounts()
        accounts.accounts[renewed.email] = renewed
        if accounts.active == nil { accounts.active = renewed.email }
        contents.environments[environment] = accounts
      }
      return renewed
    }
  }

  /// Makes another stored account active.
  public func switchAccount(to email: String, in environment: String) throws {
    try update { contents in
      guard var accounts = contents.environments[environment], accounts.accounts[email] != nil else {
        let known = contents.environments[environment]?.accounts.keys.sorted().joined(separator: ", ") ?? ""
        throw DeckError.usage(
          "No account \(email) in environment \"\(environment)\".",
          hint: known.isEmpty
            ? "Sign in first: deck auth login --email \(email) --password-stdin"
            : "Signed-in accounts: \(known).")
      }
      accounts.active = email
      contents.environments[environment] = accounts
    }
  }

  /// Forgets an account (the active one when `email` is nil) and returns it.
  @discardableResult
  public func remove(_ email: String?, in environment: String) throws -> StoredSession? {
    var removed: StoredSession?
    try update { contents in
      guard var accounts = contents.environments[environment], let target = email ?? accounts.active else { return }
      removed = accounts.accounts.removeValue(forKey: target)
      if accounts.active == target { accounts.active = accounts.accounts.keys.sorted().first }
      contents.environments[environment] = accounts.accounts.isEmpty ? nil : accounts
    }
    return removed
  }

  // MARK: File access

  func read() throws -> FileContents {
    try SecureDirectory.checkParent(of: path)
    var info = stat()
    guard stat(path, &info) == 0 else {
      if errno == ENOENT { return FileContents() }
      throw DeckError.configuration("Cannot read the token file \(path): \(String(cString: strerror(errno))).")
    }
    let mode = info.st_mode & 0o777
    if mode & 0o077 != 0 {
      throw DeckError.configuration(
        "Refusing to use the token file \(path): its mode is \(String(mode, radix: 8)), so other users may read it.",
        hint: "Restrict it with: chmod 600 \(path)  (and sign in again if the tokens may have leaked)")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw DeckError.configuration("Cannot read the token file \(path).")
    }
    do {
      return try DeckJSON.decoder.decode(FileContents.self, from: data)
    } catch {
      throw DeckError.configuration(
        "The token file \(path) is corrupt.", hint: "Remove it and sign in again: rm \(path)")
    }
  }

  /// A read-modify-write under the token file's lock, so parallel deck processes (several
  /// `auth login` at once) never lose each other's accounts.
  private func update(_ change: (inout FileContents) throws -> Void) throws {
    try AtomicFile.ensureDirectory(PathText.parent(path), mode: 0o700)
    try FileLock(for: path).withLock { try write(change) }
  }

  /// The read-modify-write itself; the caller holds the lock.
  private func write(_ change: (inout FileContents) throws -> Void) throws {
    var contents = try read()
    try change(&contents)
    try AtomicFile.write(try DeckJSON.encoder.encode(contents), to: path, mode: 0o600)
  }
}
