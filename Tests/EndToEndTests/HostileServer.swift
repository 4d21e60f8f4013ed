import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A small HTTP server (python3's http.server) for what a hostile or broken backend does and
/// the sandbox cannot: redirects to another host, any `Retry-After` text, control characters
/// in bodies. Each route answers one method and path (the query is ignored) with a canned
/// response; every other request goes to `upstream` (a served sandbox) unchanged, or gets 404.
/// Every request is logged, so a test can count what deck sent.
final class HostileServer: @unchecked Sendable {
  struct Route: Encodable {
    var method: String?
    var path: String
    var status: Int
    var headers: [[String]] = []
    /// The body, sent as its UTF-8 bytes (raw control characters included).
    var body: String = ""

    init(_ method: String? = nil, _ path: String, status: Int = 200, headers: [String: String] = [:], body: String = "")
    {
      self.method = method
      self.path = path
      self.status = status
      self.headers = headers.map { [$0.key, $0.value] }
      self.body = body
    }
  }

  private struct Configuration: Encodable {
    var routes: [Route]
    var upstream: String?
  }

  let url: String
  private let server: PythonServer
  private let temporary: TemporaryDirectory
  private var logPath: String { temporary.path + "/requests.log" }

  init(routes: [Route], upstream: String? = nil) throws {
    temporary = try TemporaryDirectory(prefix: "deck-hostile-")
    let routesPath = temporary.path + "/routes.json"
    try JSONEncoder().encode(Configuration(routes: routes, upstream: upstream)).write(
      to: URL(fileURLWithPath: routesPath))
    server = try PythonServer(Self.script, arguments: [routesPath, temporary.path + "/requests.log"])
    url = "http://127.0.0.1:\(server.port)"
  }

  /// The python process's id.
  var processIdentifier: Int32 { server.processIdentifier }

  /// The requests so far, as "METHOD /path?query".
  var requests: [String] {
    ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
  }

  /// How many requests asked for `path` (the query ignored).
  func count(_ path: String) -> Int {
    requests.filter { $0.split(separator: " ").last.map { $0.split(separator: "?").first == Substring(path) } ?? false }
      .count
  }

  static let script = #"""
    import http.server, json, signal, socketserver, sys, urllib.error, urllib.request

    # Started from a test thread that blocks signals: take the default mask back.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])

    config = json.load(open(sys.argv[1]))
    log = open(sys.argv[2], "a", buffering=1)
    routes = config["routes"]
    upstream = config.get("upstream")

    class NoRedirects(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(NoRedirects)

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def answer(self, status, body, headers=()):
            self.send_response(status)
            names = set()
            for name, value in headers:
                names.add(name.lower())
                self.send_header(name, value)
            if "content-type" not in names:
                self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def handle_any(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            log.write("%s %s\n" % (self.command, self.path))
            path = self.path.split("?")[0]
            for route in routes:
                if route.get("method") not in (None, self.command) or route["path"] != path:
                    continue
                return self.answer(route["status"], route.get("body", "").encode("utf-8"), route.get("headers", []))
            if upstream is None:
                return self.answer(404, b'{"error":"no such route"}')
            skip = ("host", "content-length", "connection", "accept-encoding")
            request = urllib.request.Request(
                upstream + self.path, data=body if self.command in ("POST", "PUT", "PATCH") else None,
                method=self.command, headers={k: v for k, v in self.headers.items() if k.lower() not in skip})
            try:
                response = opener.open(request)
            except urllib.error.HTTPError as error:
                response = error
            data = response.read()
            kept = [(k, v) for k, v in response.headers.items() if k.lower() in ("content-type", "location", "retry-after")]
            self.answer(response.status if hasattr(response, "status") else response.code, data, kept)

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = handle_any

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True

    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """#
}
