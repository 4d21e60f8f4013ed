import DeckNetworking
import DeckSupport
import Foundation
import OpenAPIRuntime

/// Turns any error a command throws into a message and an exit code. The one place where
/// errors become exit codes (the table is in the README).
public enum ErrorPresenter {
  /// The `DeckError` an error stands for; unknown errors become `.failure`.
  public static func deckError(for error: any Error) -> DeckError {
    switch error {
    case let error as DeckError:
      return error
    case let error as ClientError:
      if let inner = UnderlyingError.deckError(error) { return inner }
      if error.underlyingError is CancellationError { return DeckError(.interrupted, "Interrupted.") }
      if error.underlyingError is DecodingError {
        return DeckError(
          .failure,
          "Unexpected response from \(error.baseURL?.absoluteString ?? "the server") to \(error.operationID): \(describe(error.underlyingError))",
          hint: "Is the environment's URL right? Check with: deck env show")
      }
      return DeckError(.failure, "\(error.operationID) failed: \(describe(error.underlyingError))")
    case is CancellationError:
      return DeckError(.interrupted, "Interrupted.")
    default:
      return DeckError(.failure, describe(error))
    }
  }

  /// Whether deck's presenter (rather than the argument parser) owns this error.
  public static func owns(_ error: any Error) -> Bool {
    error is DeckError || error is ClientError || error is CancellationError || error is DecodingError
      || error is EncodingError || error is CocoaError
  }

  /// Prints the error to stderr and returns its exit code.
  public static func present(_ error: any Error, output: Output) -> Int32 {
    let deckError = deckError(for: error)
    // Messages may quote a server or the user's input: Output strips their control characters.
    output.error(deckError.message)
    if let hint = deckError.hint { output.info(hint) }
    return deckError.exitCode
  }

  static func describe(_ error: any Error) -> String {
    if let error = error as? DecodingError {
      switch error {
      case .keyNotFound(let key, let context):
        return "missing field \"\(key.stringValue)\" at \(path(context.codingPath))"
      case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
        return "\(context.debugDescription) at \(path(context.codingPath))"
      @unknown default:
        return "\(error)"
      }
    }
    if let error = error as? any LocalizedError, let description = error.errorDescription { return description }
    return "\(error)"
  }

  private static func path(_ codingPath: [any CodingKey]) -> String {
    codingPath.isEmpty ? "the top level" : codingPath.map(\.stringValue).joined(separator: ".")
  }
}
