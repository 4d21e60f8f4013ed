import DeckSupport
import Foundation
import HTTPTypes
import Hummingbird
import OpenAPIRuntime

/// A GoTrue error: the HTTP status, GoTrue's error code and message, and for `weak_password`
/// the reasons. Rendered in the body format the request's `X-Supabase-Api-Version` selects.
struct GoTrueError: Error, Equatable {
  var status: HTTPResponse.Status
  var code: String
  var message: String
  var reasons: [String]?
  /// Seconds to wait, sent as `Retry-After` (a 429).
  var retryAfter: Int?

  init(_ status: HTTPResponse.Status, _ code: String, _ message: String, reasons: [String]? = nil) {
    self.status = status
    self.code = code
    self.message = message
    self.reasons = reasons
  }

  /// GoTrue's answer past its rate limits: 429 `over_request_rate_limit`, with `Retry-After`.
  static func overRequestRateLimit(retryAfter seconds: Int) -> GoTrueError {
    var error = GoTrueError(
      .tooManyRequests, "over_request_rate_limit",
      "Request rate limit reached: too many failed sign-ins; try again in \(seconds) s.")
    error.retryAfter = seconds
    return error
  }

  static let invalidCredentials = GoTrueError(.badRequest, "invalid_credentials", "Invalid login credentials")
  /// GoTrue's answer to a grant type it does not know (its code really is invalid_credentials).
  static let unsupportedGrantType = GoTrueError(.badRequest, "invalid_credentials", "unsupported_grant_type")
  static let refreshTokenNotFound = GoTrueError(
    .badRequest, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found")
  static let refreshTokenAlreadyUsed = GoTrueError(
    .badRequest, "refresh_token_already_used", "Invalid Refresh Token: Already Used")
  static let userAlreadyExists = GoTrueError(.unprocessableContent, "user_already_exists", "User already registered")
  static let weakPassword = GoTrueError(
    .unprocessableContent, "weak_password", "Password should be at least \(Passwords.minimumLength) characters.",
    reasons: ["length"])
  static let passwordTooLong = validationFailed(
    "Password cannot be longer than \(Passwords.maximumBytes) characters")
  static let passwordHasNUL = validationFailed("Password cannot contain the NUL character (\\u0000)")
  static let nulInText = validationFailed("Text in the request cannot contain the NUL character (\\u0000)")
  static let samePassword = GoTrueError(
    .unprocessableContent, "same_password", "New password should be different from the old password.")
  static let noAuthorization = GoTrueError(
    .unauthorized, "no_authorization", "This endpoint requires a valid Bearer token")
  static let userNotFound = GoTrueError(.forbidden, "user_not_found", "User from sub claim in JWT does not exist")
  static let sessionNotFound = GoTrueError(
    .forbidden, "session_not_found", "Session from session_id claim in JWT does not exist")
  static let phoneProviderDisabled = GoTrueError(.badRequest, "phone_provider_disabled", "Unsupported phone provider")
  static let otpExpired = GoTrueError(.forbidden, "otp_expired", "Token has expired or is invalid")
  static let flowStateNotFound = GoTrueError(
    .notFound, "flow_state_not_found", "invalid flow state, no valid flow state found")
  static let flowStateExpired = GoTrueError(
    .unprocessableContent, "flow_state_expired", "invalid flow state, flow state has expired")
  static let badCodeVerifier = GoTrueError(
    .badRequest, "bad_code_verifier", "code challenge does not match previously saved code verifier")
  static let badJSON = badJSON("the body is not a JSON object with this endpoint's fields")
  static let unexpectedFailure = GoTrueError(
    .internalServerError, "unexpected_failure", "Unexpected failure, please check server logs for more information")

  /// GoTrue's answer to a body it cannot decode, with the reason (as its JSON decoder says one).
  static func badJSON(_ reason: String) -> GoTrueError {
    GoTrueError(.badRequest, "bad_json", "Could not parse request body as JSON: \(reason)")
  }

  static func badJWT(_ failure: JWTFailure) -> GoTrueError {
    if failure == .missingSubject {
      // A valid token that names no user: the project's anon key sent as the bearer.
      return GoTrueError(.forbidden, "bad_jwt", "invalid claim: missing sub claim")
    }
    return GoTrueError(.forbidden, "bad_jwt", "invalid JWT: unable to parse or verify signature, \(failure.reason)")
  }

  static func validationFailed(_ message: String, status: HTTPResponse.Status = .badRequest) -> GoTrueError {
    GoTrueError(status, "validation_failed", message)
  }

  /// GoTrue names the error code in this header on every error response, whichever body it sends.
  static let errorCodeHeader = HTTPField.Name("x-sb-error-code")!

  /// The response for a request that sent `apiVersion` as its X-Supabase-Api-Version.
  func response(apiVersion: String?) -> (HTTPResponse, HTTPBody?) {
    let (body, version) = rendered(apiVersion: apiVersion)
    var headers: HTTPFields = [.contentType: "application/json", Self.errorCodeHeader: code]
    if let version { headers[APIVersion.header] = version }
    if let retryAfter { headers[.retryAfter] = String(retryAfter) }
    return (HTTPResponse(status: status, headerFields: headers), HTTPBody(body))
  }

  /// The JSON body for a request that sent `apiVersion`, and the version to echo, if any.
  func rendered(apiVersion: String?) -> (body: Data, echoedVersion: String?) {
    let weakPassword = reasons.map { WeakPassword(reasons: $0) }
    let encoder = DeckJSON.compactEncoder
    if APIVersion.selects20240101(apiVersion) {
      let body = Body20240101(code: code, message: message, weak_password: weakPassword)
      return ((try? encoder.encode(body)) ?? Data("{}".utf8), APIVersion.v20240101)
    }
    let body = BodyOriginal(code: status.code, error_code: code, msg: message, weak_password: weakPassword)
    return ((try? encoder.encode(body)) ?? Data("{}".utf8), nil)
  }

  private struct WeakPassword: Encodable {
    var reasons: [String]
  }

  private struct BodyOriginal: Encodable {
    var code: Int
    var error_code: String
    var msg: String
    var weak_password: WeakPassword?
  }

  private struct Body20240101: Encodable {
    var code: String
    var message: String
    var weak_password: WeakPassword?
  }
}

/// GoTrue's X-Supabase-Api-Version: a date; 2024-01-01 or later selects the newer error body.
enum APIVersion {
  static let header = HTTPField.Name("X-Supabase-Api-Version")!
  static let v20240101 = "2024-01-01"

  /// Whether `value` is a date (YYYY-MM-DD) on or after 2024-01-01. Anything else, as in GoTrue,
  /// means the original version.
  static func selects20240101(_ value: String?) -> Bool {
    guard let value else { return false }
    let parts = value.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
      (1...12).contains(month), (1...31).contains(day)
    else { return false }
    return year >= 2024
  }
}

/// The gateway in front of /auth/v1 and GoTrue's error handling: checks the `apikey` header
/// (absent is fine; any value but the anon key is 401), and turns every error of the auth
/// operations, including requests the generated server could not decode, into GoTrue's body.
struct GoTrueMiddleware: ServerMiddleware {
  static let apiKeyHeader = HTTPField.Name("apikey")!
  let state: SandboxState

  func intercept(
    _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
    next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
  ) async throws -> (HTTPResponse, HTTPBody?) {
    let apiVersion = request.headerFields[APIVersion.header]
    if let apiKey = request.headerFields[Self.apiKeyHeader] {
      guard apiKey == state.anonKey else { return Self.invalidAPIKey }
    }
    do {
      var (response, responseBody) = try await next(request, body, metadata)
      // The runtime percent-encodes header values (OpenAPI's simple style); a redirect's
      // Location is a URL already, and the browser must get it as written.
      if let location = response.headerFields[.location] {
        response.headerFields[.location] = location.removingPercentEncoding ?? location
      }
      return (response, responseBody)
    } catch let error as ServerError {
      if let goTrue = error.underlyingError as? GoTrueError { return goTrue.response(apiVersion: apiVersion) }
      if let failure = error.underlyingError as? SQLFailure, failure.isBadText {
        // Text no database of the sandbox stores (a NUL character): the request's fault.
        return GoTrueError.nulInText.response(apiVersion: apiVersion)
      }
      if error.operationInput == nil, (400..<500).contains(error.httpStatus.code) {
        return Self.requestError(operationID: operationID, request: request, cause: error.underlyingError)
          .response(apiVersion: apiVersion)
      }
      return unexpected(error.underlyingError, operationID: operationID, apiVersion: apiVersion)
    } catch let error as GoTrueError {
      return error.response(apiVersion: apiVersion)
    } catch {
      return unexpected(error, operationID: operationID, apiVersion: apiVersion)
    }
  }

  /// GoTrue's 500, after logging what failed (the error, never the request's body).
  private func unexpected(_ error: any Error, operationID: String, apiVersion: String?) -> (HTTPResponse, HTTPBody?) {
    state.logger.error("auth \(operationID) failed: \(String(describing: error))")
    return GoTrueError.unexpectedFailure.response(apiVersion: apiVersion)
  }

  /// The error for a request that could not be decoded: a query value outside its enum, or a
  /// body that is not the operation's JSON.
  static func requestError(operationID: String, request: HTTPRequest, cause: (any Error)? = nil) -> GoTrueError {
    switch operationID {
    case "token":
      let grantType = QueryItems.value(of: "grant_type", in: request)
      if !["password", "refresh_token", "pkce"].contains(grantType) { return .unsupportedGrantType }
    case "logout":
      if let scope = QueryItems.value(of: "scope", in: request), !["global", "local", "others"].contains(scope) {
        return .validationFailed("Unsupported logout scope \"\(scope)\"")
      }
    default:
      break
    }
    return cause.map { .badJSON(JSONProblem.reason($0)) } ?? .badJSON
  }

  /// What a Supabase project's gateway answers to a wrong API key.
  static var invalidAPIKey: (HTTPResponse, HTTPBody?) {
    let body = #"{"hint":"Double check your Supabase `anon` or `service_role` API key.","message":"Invalid API key"}"#
    return (HTTPResponse(status: .unauthorized, headerFields: [.contentType: "application/json"]), HTTPBody(body))
  }
}

/// Why a request body did not decode, in the words of GoTrue's JSON decoder where they carry over.
enum JSONProblem {
  static func reason(_ error: any Error) -> String {
    guard let decoding = error as? DecodingError else {
      return "the body is not a JSON object with this endpoint's fields"
    }
    switch decoding {
    case .typeMismatch(let type, let context):
      return "json: cannot unmarshal \(field(context)) into a \(name(of: type))"
    case .valueNotFound(let type, let context):
      return "json: \(field(context)) must be a \(name(of: type)), not null"
    case .keyNotFound(let key, _):
      return "json: the field \"\(key.stringValue)\" is required"
    case .dataCorrupted(let context) where context.codingPath.isEmpty:
      return "invalid JSON (send a JSON object)"
    case .dataCorrupted(let context):
      return "json: \(field(context)) has a value this endpoint does not take"
    @unknown default:
      return "the body is not a JSON object with this endpoint's fields"
    }
  }

  private static func field(_ context: DecodingError.Context) -> String {
    let path = context.codingPath.map(\.stringValue).joined(separator: ".")
    return path.isEmpty ? "the body" : "the field \"\(path)\""
  }

  private static func name(of type: Any.Type) -> String {
    switch type {
    case is String.Type: "string"
    case is Bool.Type: "boolean"
    case is Int.Type, is Int64.Type, is Double.Type: "number"
    default: "JSON object"
    }
  }
}
