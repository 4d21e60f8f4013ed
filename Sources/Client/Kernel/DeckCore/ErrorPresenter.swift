import DeckNetworking
import DeckSupport
import FoundationEssentials
import OpenAPIRuntime

/// Turns any error a command throws into a message and an exit code. The one place where
/// errors become exit codes (the table is in docs/GUIDE.md, "Exit codes").
public enum ErrorPresenter {
  /// The `DeckError` an error stands for; unknown errors become `.failure`.
  public static func deckError(for error: any Error) -> DeckError {
    switch error {
    case let error as DeckError:
      return error
    case let error as ClientError:
      if let inner = UnderlyingError.deckError(error) { return inner }
      if error.underlyingError is CancellationError { return DeckError(.interrupted, "Interrupted.") }
      if let decoding = error.underlyingError as? DecodingError { return ResponseShapeText.error(error, decoding) }
      return DeckError(.failure, "\(error.operationID) failed: \(describe(error.underlyingError))")
    case is CancellationError:
      return DeckError(.interrupted, "Interrupted.")
    default:
      if let unexpected = unexpectedResponse(error) { return unexpected }
      return DeckError(.failure, describe(error))
    }
  }

  /// The generated client's error for a response the command does not expect (its `.ok` on
  /// an `undocumented(statusCode:…)` answer, or on another documented one), as one message
  /// that names the service, the operation and the status. The runtime's error type is not
  /// public: it is read by reflection, and its text (Swift types) is never printed.
  static func unexpectedResponse(_ error: any Error) -> DeckError? {
    guard String(reflecting: type(of: error)) == "OpenAPIRuntime.RuntimeError",
      let (label, payload) = Mirror(reflecting: error).children.first.map({ ($0.label, $0.value) }),
      label == "unexpectedResponseStatus",
      let response = Mirror(reflecting: payload).children.first(where: { $0.label == "response" })?.value
    else { return nil }
    // `Module.Operations.operationID.Output`: the operation, and the module for a service.
    let typeName = String(reflecting: type(of: response))
    let parts = typeName.split(separator: ".").map(String.init)
    let operationID = parts.count >= 2 && parts.last == "Output" ? parts[parts.count - 2] : "the request"
    let contract = parts.first.map { $0.hasSuffix("API") ? String($0.dropLast(3)) : $0 } ?? "remote"
    let answer = Mirror(reflecting: response).children.first
    guard answer?.label != "undocumented" else {
      // `undocumented(statusCode:, UndocumentedPayload)`: the payload has the answer's fields,
      // with the service that answered.
      let fields = answer.map { Mirror(reflecting: $0.value).children.map(\.value) } ?? []
      let status = fields.first as? Int
      let payload = fields.dropFirst().first as? UndocumentedPayload
      let service = UndocumentedResponse.service(in: payload?.headerFields) ?? contract
      return UndocumentedResponse.error(service: service, operationID: operationID, status: status)
    }
    // A documented answer keeps only its documented headers: the contract names the service.
    let service = contract
    return UndocumentedResponse.error(
      service: service, operationID: operationID, status: answer?.label.flatMap { documentedStatuses[$0] },
      documented: true)
  }

  /// The generated cases of documented statuses a command may meet where it expects another.
  private static let documentedStatuses = [
    "ok": 200, "created": 201, "accepted": 202, "noContent": 204, "badRequest": 400, "unauthorized": 401,
    "forbidden": 403, "notFound": 404, "conflict": 409, "unprocessableContent": 422, "tooManyRequests": 429,
  ]

  /// Whether deck's presenter (rather than the argument parser) owns this error.
  public static func owns(_ error: any Error) -> Bool {
    error is DeckError || error is ClientError || error is CancellationError || error is DecodingError
      || error is EncodingError || error is CocoaError || unexpectedResponse(error) != nil
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
    if let error = error as? DecodingError { return "Data deck cannot read: \(ResponseShapeText.describe(error))." }
    if let error = error as? any LocalizedError, let description = error.errorDescription { return description }
    return "\(error)"
  }
}
