import DeckHTTPTransport
import DeckSupport
import FoundationEssentials
import HTTPTypes
import OpenAPIRuntime
import TestSupport
import Testing

/// deck's transport (`HTTPTransportFactory.transport`) against a real server on loopback: a
/// Python server that answers with what it received, so the request deck puts on the wire
/// and the answer the generated clients get back can both be checked.
@Suite("The HTTP transport")
struct HTTPTransportTests {
  /// Answers every request with 201, two `X-Seen` fields, and a JSON echo of the request.
  static let echoServer = """
    import http.server, json
    class Echo(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def answer(self):
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length).decode()
            echo = json.dumps({"method": self.command, "path": self.path, "body": body,
                               "headers": {k.lower(): v for k, v in self.headers.items()}}).encode()
            self.send_response(201)
            self.send_header("X-Seen", "one")
            self.send_header("X-Seen", "two")
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(echo)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(echo)
        do_GET = do_POST = do_HEAD = answer
        def log_message(self, *args): pass
    server = http.server.HTTPServer(("127.0.0.1", 0), Echo)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """

  struct Echo: Decodable {
    var method: String
    var path: String
    var body: String
    var headers: [String: String]
  }

  static func url(_ string: String) throws -> URL {
    try #require(URL(string: string))
  }

  @Test func sendsTheOperationUnderTheBaseURLAndBringsBackTheWholeAnswer() async throws {
    let server = try PythonServer(Self.echoServer)
    let transport = HTTPTransportFactory.shared.transport(timeout: .seconds(10))
    var request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/api/items?q=re%2Fmax&limit=2")
    request.headerFields[.contentType] = "application/json"
    request.headerFields[try #require(HTTPField.Name("X-Deck-Test"))] = "yes"
    let (response, body) = try await transport.send(
      request, body: HTTPBody(#"{"a":1}"#),
      baseURL: try Self.url("http://127.0.0.1:\(server.port)/prefix?dropped=1"), operationID: "echo")

    #expect(response.status.code == 201)
    // Both fields of the same name arrive, in order.
    #expect(response.headerFields[values: try #require(HTTPField.Name("X-Seen"))] == ["one", "two"])
    let bytes = try await Data(collecting: try #require(body), upTo: 1 << 20)
    let echo = try JSONDecoder().decode(Echo.self, from: bytes)
    #expect(echo.method == "POST")
    // The base URL's path is kept and its query replaced by the operation's, still encoded.
    #expect(echo.path == "/prefix/api/items?q=re%2Fmax&limit=2")
    #expect(echo.body == #"{"a":1}"#)
    #expect(echo.headers["x-deck-test"] == "yes")
    #expect(echo.headers["content-type"] == "application/json")
    #expect(echo.headers["content-length"] == "7")
    #expect(echo.headers["host"] == "127.0.0.1:\(server.port)")
  }

  @Test func anAnswerToHEADHasNoBody() async throws {
    let server = try PythonServer(Self.echoServer)
    let transport = HTTPTransportFactory.shared.transport(timeout: .seconds(10))
    let request = HTTPRequest(method: .head, scheme: nil, authority: nil, path: "/anything")
    let (response, body) = try await transport.send(
      request, body: nil, baseURL: try Self.url("http://127.0.0.1:\(server.port)"), operationID: "head")
    #expect(response.status.code == 201)
    #expect(body == nil)
  }

  /// Without cancellation reaching the request, this would wait out the 30 s deadline and end
  /// in a timeout error instead.
  @Test func cancellingTheTaskEndsARequestTheServerNeverAnswers() async throws {
    let silent = try PythonServer(
      """
      import socket, time
      s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(16)
      print(s.getsockname()[1], flush=True)
      connections = []
      while True:
          connections.append(s.accept()[0])
      """)
    let transport = HTTPTransportFactory.shared.transport(timeout: .seconds(30))
    let base = try Self.url("http://127.0.0.1:\(silent.port)")
    let request = Task {
      try await transport.send(
        HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/slow"), body: nil, baseURL: base,
        operationID: "slow")
    }
    try await Task.sleep(for: .milliseconds(300))
    request.cancel()
    let outcome = await request.result
    #expect(throws: CancellationError.self) { try outcome.get() }
  }

  @Test func aRequestBodyOverTheLimitIsRefusedBeforeAnythingIsSent() async throws {
    let server = try PythonServer(Self.echoServer)
    let transport = HTTPTransportFactory.shared.transport(timeout: .seconds(10))
    let huge = HTTPBody([UInt8](repeating: 0x20, count: (64 << 20) + 1))
    let error = await #expect(throws: DeckError.self) {
      try await transport.send(
        HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/upload"), body: huge,
        baseURL: try Self.url("http://127.0.0.1:\(server.port)"), operationID: "upload")
    }
    #expect(error?.message.contains("over 64 MB") == true, "\(String(describing: error))")
    #expect(error?.kind == .usage)
  }
}
