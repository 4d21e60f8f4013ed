import ArgumentParser
import DeckSupport

/// The options of `deck sandbox serve` and `deck-sandbox serve`, declared once: deck parses and
/// validates them (help, completion, usage errors), then runs the server program with the same
/// options (``arguments``).
public struct ServeOptions: ParsableArguments, Sendable {
  @Option(help: "The address to listen on; anything but loopback needs --allow-remote.")
  public var host = "127.0.0.1"

  @Option(help: "The port to listen on (0 for any free port).")
  public var port = 8787

  @Option(
    name: [.customLong("database"), .customLong("db")],
    help: ArgumentHelp(
      "The database: a SQLite file (or sqlite:PATH), or postgres://USER@HOST[:PORT]/DB[?sslmode=MODE] (default: $DECK_SANDBOX_DATABASE, else the local sandbox's file).",
      valueName: "path-or-url"),
    completion: .file())
  public var db: String?

  @Flag(help: "Listen on a non-loopback --host: anyone who can reach it can use the sandbox's APIs.")
  public var allowRemote = false

  @Option(
    help: ArgumentHelp(
      "The base URL of the links the sandbox hands out (checkout, join), when clients reach it by another name.",
      valueName: "url"))
  public var publicURL: String?

  @Option(
    help: ArgumentHelp(
      "Stop after this many seconds without a request (0: never, the default for serve).", valueName: "seconds"))
  public var idleTimeout = 0

  @Option(
    help: ArgumentHelp(
      "Failed password sign-ins a minute before 429 with Retry-After, per account and per client address (EMAIL:ADDRESS, or off).",
      valueName: "email:address"))
  public var rateLimit = SignInRateLimit.standard

  @Option(
    name: .customLong("cors-origin"),
    help: ArgumentHelp(
      "A web origin (http(s)://host[:port]) whose pages may call the sandbox from a browser, besides loopback ones (repeatable).",
      valueName: "origin"))
  public var corsOrigins: [String] = []

  @Option(help: .hidden)
  public var accessTokenTTL = 3600

  public init() {}

  public func validate() throws {
    guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535, got \(port).") }
    guard accessTokenTTL > 0 else { throw ValidationError("--access-token-ttl must be positive.") }
    guard idleTimeout >= 0 else { throw ValidationError("--idle-timeout must be 0 (never) or a number of seconds.") }
    if let publicURL, ParsedURL(publicURL) == nil || publicURL.contains("?") || publicURL.contains("#") {
      throw ValidationError("--public-url must be an absolute http(s) URL such as http://sandbox.test:8787.")
    }
    for origin in corsOrigins where !Self.isOrigin(origin) {
      throw ValidationError(
        "--cors-origin \(origin) is not a web origin: give scheme, host and port only, such as https://app.example.test:3000."
      )
    }
  }

  /// `http(s)://host[:port]`, with no path (a trailing slash aside), query or fragment.
  static func isOrigin(_ text: String) -> Bool {
    guard let parsed = ParsedURL(text), ["http", "https"].contains(parsed.scheme),
      let schemeEnd = text.firstRange(of: "://")
    else { return false }
    let rest = text[schemeEnd.upperBound...]
    let authority = rest.prefix { $0 != "/" }
    let path = rest.dropFirst(authority.count)
    return !authority.isEmpty && (path.isEmpty || path == "/") && !text.contains("?") && !text.contains("#")
      && !authority.contains("@")
  }

  /// The database to serve: `--database`, else `DECK_SANDBOX_DATABASE`, else `fallback`.
  public func database(environment: [String: String], fallback: String) -> String {
    if let db { return db }
    if let variable = environment["DECK_SANDBOX_DATABASE"], !variable.isEmpty { return variable }
    return fallback
  }

  /// The command line that gives a program these options (`db` given explicitly; nil: none,
  /// the program reads `DECK_SANDBOX_DATABASE`).
  public func arguments(database: String?) -> [String] {
    var arguments = ["--host", host, "--port", String(port)]
    if let database { arguments += ["--db", database] }
    arguments += ["--idle-timeout", String(idleTimeout), "--access-token-ttl", String(accessTokenTTL)]
    if allowRemote { arguments.append("--allow-remote") }
    if let publicURL { arguments += ["--public-url", publicURL] }
    if rateLimit != .standard { arguments += ["--rate-limit", rateLimit.description] }
    for origin in corsOrigins { arguments += ["--cors-origin", origin] }
    return arguments
  }
}

/// `serve --rate-limit`: how many wrong passwords to one account, and from one client address,
/// the auth service takes in a minute before it answers 429 (only failed sign-ins to accounts
/// that exist count). `10:30` by default; `off` for none.
public struct SignInRateLimit: ExpressibleByArgument, Sendable, Equatable, CustomStringConvertible {
  /// Per account; nil: no limit.
  public var perEmail: Int?
  /// Per client address; nil: no limit.
  public var perAddress: Int?

  public static let standard = SignInRateLimit(perEmail: 10, perAddress: 30)

  public init(perEmail: Int?, perAddress: Int?) {
    self.perEmail = perEmail
    self.perAddress = perAddress
  }

  /// `off`, or `EMAIL:ADDRESS` where each is a positive count or `off`.
  public init?(argument: String) {
    let text = argument.lowercased()
    if text == "off" {
      self.init(perEmail: nil, perAddress: nil)
      return
    }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2 else { return nil }
    func count(_ part: Substring) -> Int?? {
      if part == "off" { return .some(nil) }
      guard let value = Int(part), (1...1_000_000).contains(value) else { return nil }
      return .some(value)
    }
    guard let perEmail = count(parts[0]), let perAddress = count(parts[1]) else { return nil }
    self.init(perEmail: perEmail, perAddress: perAddress)
  }

  public var description: String {
    if perEmail == nil && perAddress == nil { return "off" }
    return "\(perEmail.map(String.init) ?? "off"):\(perAddress.map(String.init) ?? "off")"
  }

  public var defaultValueDescription: String { description }
}
