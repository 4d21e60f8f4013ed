import DeckHTTPTransport
import DeckSupport
import FoundationEssentials
import HTTPTypes
import OpenAPIRuntime
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 44, finding 7: the transport stops reading an answer at `ResponseBodyLimit` while it
/// streams in (it read 1 GiB whole before any limit applied), against a Python server that sends
/// bodies of any size, endless ones included.
@Suite("The HTTP transport: response body limits", .serialized)
struct HTTPTransportBodyLimitTests {
  /// `GET /endless`: a chunked body that never ends; `/declared`: Content-Length 1 GiB, then
  /// bytes until the client goes; `/closing`: no length, bytes until the client goes;
  /// `/size/N`: N bytes with their length.
  static let server = """
    import http.server, socketserver
    class Streams(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def do_GET(self):
            chunk = b"[" + b"1," * 32767 + b"1]"
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            try:
                if self.path.startswith("/size/"):
                    size = int(self.path[6:])
                    self.send_header("Content-Length", str(size))
                    self.end_headers()
                    self.wfile.write(b" " * size)
                    return
                if self.path == "/endless":
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    while True:
                        self.wfile.write(b"%x\\r\\n%s\\r\\n" % (len(chunk), chunk))
                if self.path == "/declared":
                    self.send_header("Content-Length", str(1 << 30))
                else:
                    self.send_header("Connection", "close")
                self.end_headers()
                while True:
                    self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
        def log_message(self, *args): pass
    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
    server = Server(("127.0.0.1", 0), Streams)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """

  static func get(_ path: String, port: Int) async throws -> [UInt8] {
    let transport = HTTPTransportFactory.shared.transport(timeout: .seconds(60))
    let (_, body) = try await transport.send(
      HTTPRequest(method: .get, scheme: nil, authority: nil, path: path), body: nil,
      baseURL: try #require(URL(string: "http://127.0.0.1:\(port)")), operationID: "listThings")
    return Array(try await Data(collecting: try #require(body), upTo: .max))
  }

  /// This process's resident memory, from /proc/self/statm.
  static func residentBytes() -> Int {
    let text = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
    let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }

  @Test(
    "an endless or huge answer stops at 32 MB, with an error naming the host and the operation, in bounded memory",
    arguments: ["/endless", "/closing"])
  func streamedBodiesStopAtTheLimit(path: String) async throws {
    let server = try PythonServer(Self.server)
    let before = Self.residentBytes()
    let error = await #expect(throws: DeckError.self) { try await Self.get(path, port: server.port) }
    #expect(error?.kind == .failure)
    #expect(
      error?.message
        == "127.0.0.1:\(server.port) answered listThings with a body over 32 MB, the most deck reads of one response; deck stopped reading it.",
      "\(String(describing: error))")
    #expect(error?.hint?.contains("Ask for less") == true)
    // 32 MB read, in one buffer: far from the gigabytes an unbounded read reaches.
    let grown = Self.residentBytes() - before
    #expect(grown < 256 << 20, "grew by \(grown >> 20) MB")
  }

  @Test("a Content-Length over the limit is refused before the body is read")
  func declaredLengthOverTheLimit() async throws {
    let server = try PythonServer(Self.server)
    let started = ContinuousClock.now
    let error = await #expect(throws: DeckError.self) { try await Self.get("/declared", port: server.port) }
    #expect(error?.message.contains("with a body over 32 MB") == true, "\(String(describing: error))")
    #expect(ContinuousClock.now - started < .seconds(10))
  }

  @Test("a task sets a lower limit (a photo, the contract check); an answer under the limit comes back whole")
  func taskLimit() async throws {
    let server = try PythonServer(Self.server)
    #expect(try await Self.get("/size/\(1 << 20)", port: server.port).count == 1 << 20)
    #expect(try await Self.get("/size/\(ResponseBodyLimit.standard)", port: server.port).count == 32 << 20)
    try await ResponseBodyLimit.$bytes.withValue(1 << 20) {
      let whole = try await Self.get("/size/\(1 << 20)", port: server.port)
      #expect(whole.count == 1 << 20)
      let error = await #expect(throws: DeckError.self) {
        try await Self.get("/size/\((1 << 20) + 1)", port: server.port)
      }
      #expect(error?.message.contains("with a body over 1 MB") == true, "\(String(describing: error))")
      let endless = await #expect(throws: DeckError.self) { try await Self.get("/endless", port: server.port) }
      #expect(endless?.message.contains("with a body over 1 MB") == true, "\(String(describing: endless))")
    }
  }
}
