import DeckSupport
import OpenAPIRuntime

/// The OpenAPI runtime wraps what a transport or middleware throws in a `ClientError`, whose
/// description carries the operation's input and the request body (a password, a refresh
/// token). deck looks through the wrapper, and never prints the wrapper itself.
public enum UnderlyingError {
  /// The innermost error: the `DeckError` a transport threw, rather than the runtime's wrapper.
  public static func of(_ error: any Error) -> any Error {
    var current = error
    // ClientErrors can nest (a middleware error wrapping a transport error); a few levels suffice.
    for _ in 0..<8 {
      guard let wrapped = current as? ClientError else { break }
      current = wrapped.underlyingError
    }
    return current
  }

  /// The `DeckError` inside `error`, if any.
  public static func deckError(_ error: any Error) -> DeckError? {
    of(error) as? DeckError
  }

  /// A one-line description of `error` that is safe to print: the mapped message of a
  /// `DeckError`, otherwise only the error's type (its description might quote the request).
  public static func safeDescription(_ error: any Error) -> String {
    let inner = of(error)
    if let deck = inner as? DeckError { return TerminalText.sanitize(deck.message) }
    if inner is CancellationError { return "cancelled" }
    return "\(type(of: inner))"
  }
}
