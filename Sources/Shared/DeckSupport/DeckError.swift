/// The one error type that deck's modules throw for problems a user can act on.
///
/// Every failure ends up here (or is turned into one of these in `ErrorPresenter`), and the
/// kind alone decides the exit code, so exit codes are mapped in exactly one place.
public struct DeckError: Error, Sendable, Equatable, CustomStringConvertible {
  public enum Kind: Sendable, Equatable {
    /// Bad input caught before anything was sent.
    case usage
    /// A local file or setting is wrong (config, token store).
    case configuration
    /// The server rejected the request's data (400, 409, 422).
    case rejected(status: Int)
    /// The server answered 404.
    case notFound
    /// Not authenticated or not allowed (401, 403), or no usable token.
    case unauthorized(status: Int?)
    /// The service could not be reached, timed out, or answered 5xx after retries.
    case unavailable(status: Int?)
    /// The user interrupted the command (Ctrl-C).
    case interrupted
    /// Anything else.
    case failure
  }

  public var kind: Kind
  public var message: String
  /// What the user can do about it, printed on its own line.
  public var hint: String?
  /// True when the request never reached the server (connect error); retries may resend it.
  public var isConnectError: Bool

  public init(_ kind: Kind, _ message: String, hint: String? = nil, isConnectError: Bool = false) {
    self.kind = kind
    self.message = message
    self.hint = hint
    self.isConnectError = isConnectError
  }

  public static func usage(_ message: String, hint: String? = nil) -> DeckError {
    DeckError(.usage, message, hint: hint)
  }

  public static func configuration(_ message: String, hint: String? = nil) -> DeckError {
    DeckError(.configuration, message, hint: hint)
  }

  public static func failure(_ message: String, hint: String? = nil) -> DeckError {
    DeckError(.failure, message, hint: hint)
  }

  /// The documented exit code (docs/GUIDE.md, "Exit codes").
  public var exitCode: Int32 {
    switch kind {
    case .usage: ExitCode.usage
    case .rejected: ExitCode.dataError
    case .unavailable: ExitCode.unavailable
    case .unauthorized: ExitCode.noPermission
    case .interrupted: ExitCode.interrupted
    case .configuration, .notFound, .failure: ExitCode.failure
    }
  }

  public var description: String {
    hint.map { "\(message)\n\($0)" } ?? message
  }
}

/// deck's exit codes, after sysexits(3).
public enum ExitCode {
  public static let success: Int32 = 0
  public static let failure: Int32 = 1
  public static let usage: Int32 = 64
  public static let dataError: Int32 = 65
  public static let unavailable: Int32 = 69
  public static let noPermission: Int32 = 77
  public static let interrupted: Int32 = 130
}
