import AsyncHTTPClient
import DeckConfig
import DeckSupport
import FoundationEssentials
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOPosix
import OpenAPIRuntime
import Synchronization

/// deck's HTTP layer: one async-http-client with one connection pool for the whole process
/// (a one-shot command, or every line of a REPL or script).
public final class HTTPTransportFactory: Sendable {
  /// The event loop group and the client, created on first use: commands that send nothing
  /// never start an event loop (script mode starts it before its first line, to run its lines
  /// on it: `ClientLoopExecutor`).
  private static let state = Mutex<(group: MultiThreadedEventLoopGroup?, factory: HTTPTransportFactory?)>((nil, nil))

  /// The process's transport factory, created on first use.
  public static var shared: HTTPTransportFactory {
    let group = eventLoopGroup
    return state.withLock { state in
      if let factory = state.factory { return factory }
      let factory = HTTPTransportFactory(group: group)
      state.factory = factory
      return factory
    }
  }

  /// The event loop of deck's client side: one thread. A deck process sends one request at a
  /// time or a few (a one-shot, a script line, a kiosk's polls), and `.singleton` would start
  /// one thread per core at every start.
  public static var eventLoopGroup: MultiThreadedEventLoopGroup {
    state.withLock { state in
      if let group = state.group { return group }
      let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
      state.group = group
      return group
    }
  }

  let client: HTTPClient

  init(group: MultiThreadedEventLoopGroup) {
    var configuration = HTTPClient.Configuration()
    configuration.timeout = .init(connect: .seconds(10))
    configuration.connectionPool = .init(idleTimeout: .seconds(60))
    // A refused connection fails at once instead of being retried until the connect timeout
    // (10 s on loopback); deck's own retry policy decides whether to try again.
    configuration.connectionPool.retryConnectionEstablishment = false
    // A 3xx answer is never followed: it comes back to the error mapping, which names the
    // Location (exit 1). Following it would send the request to another host (https to plain
    // http included) around deck's URL checks, and `--trace` would credit the original host.
    configuration.redirectConfiguration = .disallow
    configuration.decompression = .enabled(limit: .ratio(20))
    // deck traces with its own middleware (--trace). Without a tracer of its own the client
    // takes swift-distributed-tracing's global no-op one, and still parses each request's URL
    // for span attributes nobody reads.
    configuration.tracing.tracer = nil
    client = HTTPClient(eventLoopGroupProvider: .shared(group), configuration: configuration)
  }

  /// A transport with a per-request timeout; errors come out as `DeckError`s.
  public func transport(timeout: Duration) -> any ClientTransport {
    DeckTransport(client: client, timeout: timeout)
  }
}

/// The generated clients' transport: sends a request through the client's future-based API,
/// and translates failures into `DeckError`s that name the host and the fix.
///
/// The future-based API, not the async one: for each request, the async one starts an
/// unstructured task for an actor that registers its cancellation, which wakes a thread of the
/// global pool, and it hands the body over as an async sequence. Here a request and its
/// answer stay on the client's event loop, and a script's lines run there too
/// (`ClientLoopExecutor`). deck's contracts have no streamed bodies: a request body is
/// collected before it is sent (the largest is a 5 MB photo), and an answer is read whole, up
/// to `ResponseBodyLimit.bytes` (32 MB unless the task says less): past it, reading stops while
/// the body streams in, or before it starts when Content-Length says more.
struct DeckTransport: ClientTransport {
  let client: HTTPClient
  let timeout: Duration

  /// The largest request body deck sends; a larger one is refused before anything is sent.
  static let requestBodyLimit = 64 << 20

  func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
    HTTPResponse, HTTPBody?
  ) {
    do {
      let outgoing = try await Self.outgoing(request, body: body, baseURL: baseURL)
      let accumulator = ResponseAccumulator(request: outgoing, maxBodySize: max(0, ResponseBodyLimit.bytes))
      let task = client.execute(
        request: outgoing, delegate: accumulator, eventLoop: .indifferent,
        deadline: .now() + TimeAmount(timeout))
      let answer = try await withTaskCancellationHandler {
        try await task.futureResult.get()
      } onCancel: {
        task.cancel()
      }
      return Self.incoming(answer, method: request.method)
    } catch {
      throw Self.translate(
        error, baseURL: baseURL, timeout: timeout, operationID: operationID,
        writes: ![.get, .head, .options].contains(request.method))
    }
  }

  /// The request to send: the operation's path and query (already percent-encoded by the
  /// generated client) appended to the environment's base URL, whose own query, if any, is
  /// dropped; the headers as they are; the body collected.
  static func outgoing(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL) async throws -> HTTPClient.Request {
    let base = baseURL.absoluteString
    let url = String(base.prefix { $0 != "?" && $0 != "#" }) + (request.path ?? "")
    var headers = HTTPHeaders()
    for field in request.headerFields { headers.add(name: field.name.canonicalName, value: field.value) }
    var bytes: [UInt8]?
    if let body {
      var collected: [UInt8] = []
      for try await chunk in body {
        guard collected.count + chunk.count <= requestBodyLimit else {
          throw DeckError(
            .usage, "The request's body is over \(requestBodyLimit >> 20) MB, more than deck sends.",
            hint: "Send a smaller file.")
        }
        collected += chunk
      }
      bytes = collected
    }
    return try HTTPClient.Request(
      url: url, method: HTTPMethod(rawValue: request.method.rawValue), headers: headers, body: bytes.map { .bytes($0) })
  }

  /// The answer as the generated client reads it. A header name NIO's parser let through is
  /// a valid token, so none is dropped in practice; one that is not would be, rather than trap.
  static func incoming(_ answer: HTTPClient.Response, method: HTTPRequest.Method) -> (HTTPResponse, HTTPBody?) {
    var fields = HTTPFields()
    for header in answer.headers {
      if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
    }
    let response = HTTPResponse(status: .init(code: Int(answer.status.code)), headerFields: fields)
    switch method {
    case .head, .connect, .trace: return (response, nil)
    default: return (response, HTTPBody(answer.body.map { Array($0.readableBytesView) } ?? []))
    }
  }

  /// `writes`: the request changes something (POST, PUT, PATCH, DELETE). When it timed out,
  /// the server may have made the change anyway, so "try again" is not the whole advice.
  static func translate(
    _ error: any Error, baseURL: URL, timeout: Duration, operationID: String = "the request", writes: Bool = false
  ) -> any Error {
    if error is CancellationError || Task.isCancelled { return CancellationError() }
    if error is DeckError { return error }
    let host = baseURL.host.map { h in baseURL.port.map { "\(h):\($0)" } ?? h } ?? baseURL.absoluteString
    let loopback = baseURL.host.map(URLPolicy.isLoopback) ?? false
    let serveHint =
      loopback
      ? "Is the sandbox running? Start it with: \(URLPolicy.serveCommand(scheme: baseURL.scheme, port: baseURL.port))"
      : "Check the URL with `deck env show` and your network."
    func unreachable(_ reason: String) -> DeckError {
      DeckError(.unavailable(status: nil), "Cannot reach \(host): \(reason).", hint: serveHint, isConnectError: true)
    }
    if let error = error as? HTTPClientError {
      switch error {
      case .cancelled: return CancellationError()
      case .connectTimeout: return unreachable("the connection timed out")
      case .deadlineExceeded, .readTimeout:
        return DeckError(
          .unavailable(status: nil),
          "\(host) did not answer within \(NumberText.short(timeout / .seconds(1))) s.",
          hint: writes
            ? "The server may have made the change anyway: check before you try again (or allow more time with --timeout SECONDS)."
            : "Try again, or allow more time with --timeout SECONDS.")
      case .getConnectionFromPoolTimeout:
        return DeckError(
          .unavailable(status: nil), "No connection to \(host) became free in time.",
          hint: "Try again; if it persists, rerun with --trace and report it.")
      case .remoteConnectionClosed:
        return DeckError(.unavailable(status: nil), "\(host) closed the connection before answering.")
      default:
        return DeckError(.unavailable(status: nil), "Request to \(host) failed: \(error).")
      }
    }
    if error is NIOConnectionError { return unreachable("connection refused") }
    if let error = error as? IOError {
      switch error.errnoCode {
      case ECONNREFUSED: return unreachable("connection refused")
      case EHOSTUNREACH, ENETUNREACH: return unreachable("no route to host")
      default: return unreachable(String(cString: strerror(error.errnoCode)))
      }
    }
    if let error = error as? ChannelError, case .connectTimeout = error {
      return unreachable("the connection timed out")
    }
    if let error = error as? ResponseAccumulator.ResponseTooBigError {
      return DeckError(
        .failure,
        "\(host) answered \(operationID) with a body over \(sizeText(error.maxBodySize)), the most deck reads of one response; deck stopped reading it.",
        hint:
          "Ask for less (a narrower search or a smaller page), or ask the service's owners why the answer is this large."
      )
    }
    if error is NIOTooManyBytesError {
      return DeckError(.failure, "\(host) answered \(operationID) with a body too large to read.")
    }
    // NIO's HTTP parser: what a 1xx status with a body (100 Continue, 102 Processing), or an
    // answer that is not HTTP, ends in. The status was no final one.
    if error is HTTPParserError {
      return DeckError(
        .failure,
        "\(host) answered \(operationID) with a response that is not valid HTTP (\(error)): an informational status (1xx) with a body, or no HTTP at all; the service's contract documents neither.",
        hint: "Is the environment's URL right? Check with: deck env show; rerun with --trace to see the exchange.")
    }
    return DeckError(.unavailable(status: nil), "Request to \(host) failed: \(error).")
  }

  /// A byte count as "32 MB" (whole megabytes) or "900 KB".
  static func sizeText(_ bytes: Int) -> String {
    bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MB" : "\(NumberText.short(Double(bytes) / 1024)) KB"
  }
}
