import DeckConfig
import DeckNetworking
import DeckSupport
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 44, finding 4: one rule for "is this environment production" (`ProductionRule`).
@Suite("Production environments")
struct ProductionRuleTests {
  init() { FeatureServices.register() }

  func resolver(_ environments: [(String, ConfigFile.Entry)], variables: [String: String] = [:])
    -> EnvironmentResolver
  {
    EnvironmentResolver(
      file: ConfigFile(environments: environments.map { (name: $0.0, entry: $0.1) }), processEnvironment: variables)
  }

  @Test func aCopyOfProductionsURLsIsProduction() throws {
    let production = try #require(BuiltinEnvironments.named("production"))
    let copy = resolver([("copy", .init(urls: production.urls))])
    let definition = try #require(copy.definition("copy"))
    #expect(definition.isProduction)
    #expect(definition.productionReason?.contains("production environment \"production\"") == true)
    // One service left at production is enough, whatever the URL's spelling.
    let partial = resolver([
      ("eu", .init(urls: [.flyr: "https://staging.flyrpro.app", .nudge: "https://API.nudge.starshape.in:443/v1"]))
    ])
    #expect(partial.definition("eu")?.isProduction == true)
    #expect(partial.definitions.first { $0.name == "eu" }?.isProduction == true, "env list sees the same")
    #expect(
      partial.definition("eu")?.productionReason
        == "nudge is at https://api.nudge.starshape.in:443, as nudge is in production environment \"production\"")
  }

  @Test func anotherSchemeOrPortIsAnotherOrigin() throws {
    let other = resolver([
      ("a", .init(urls: [.flyr: "http://flyrpro.app"], allowInsecureHTTP: true)),
      ("b", .init(urls: [.flyr: "https://flyrpro.app:8443"])),
    ])
    #expect(other.definition("a")?.isProduction == false)
    #expect(other.definition("b")?.isProduction == false)
  }

  @Test func anEnvironmentMarkedProductionMakesItsTwinsProduction() throws {
    let resolver = resolver([
      ("prod-eu", .init(urls: [.kiosk: "https://kiosk.eu.example.com"], isProduction: true)),
      ("twin", .init(urls: [.kiosk: "https://kiosk.eu.example.com/"], isSandbox: true)),
      ("lab", .init(urls: [.kiosk: "https://kiosk.lab.example.com"], isSandbox: true)),
    ])
    let twin = try #require(resolver.definition("twin"))
    #expect(twin.isProduction)
    #expect(!twin.isSandbox, "a production environment is never a sandbox")
    #expect(twin.productionReason?.contains("\"prod-eu\"") == true)
    #expect(resolver.definition("prod-eu")?.productionReason?.contains("production: true") == true)
    #expect(resolver.definition("lab")?.isProduction == false)
    #expect(resolver.definition("lab")?.isSandbox == true)
  }

  @Test func publicServicesAndTheBuiltinsDoNotCount() throws {
    let resolver = resolver([("geo", .init(urls: [.geocoder: "https://geocoding.geo.census.gov"]))])
    for name in ["geo", "dev", "staging", "local", "sandbox", "simulator"] {
      #expect(resolver.definition(name)?.isProduction == false, "\(name)")
    }
    #expect(resolver.definition("production")?.isProduction == true)
  }

  @Test func theBuiltinProductionStaysProduction() throws {
    let resolver = resolver([("production", .init(isSandbox: true, isProduction: false))])
    let production = try #require(resolver.definition("production"))
    #expect(production.isProduction)
    #expect(!production.isSandbox)
  }

  @Test func anOverrideAtAProductionOriginMakesTheEnvironmentProduction() throws {
    let resolved = try resolver([], variables: ["DECK_FLYR_URL": "https://flyrpro.app"]).resolve(flag: "staging")
    #expect(resolved.definition.isProduction)
    let plain = try resolver([]).resolve(flag: "staging")
    #expect(!plain.definition.isProduction)
  }
}

/// Issue 44, finding 15: an origin is scheme, host and port.
@Suite("Token origins")
struct TokenOriginTests {
  typealias Next = @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)

  @Test func theOriginHasTheSchemeAndThePort() {
    #expect(AuthMiddleware.origin(scheme: "https", host: "LocalHost", port: nil) == "https://localhost:443")
    #expect(AuthMiddleware.origin(scheme: "http", host: "localhost", port: 80) == "http://localhost:80")
    #expect(AuthMiddleware.origin(scheme: "http", host: "::1", port: 8787) == "http://[::1]:8787")
    #expect(AuthMiddleware.origin(scheme: "http", host: "[::1]", port: 8787) == "http://[::1]:8787")
    #expect(AuthMiddleware.origin(scheme: "ftp", host: "x", port: nil) == nil)
    #expect(ParsedURL("HTTPS://Flyrpro.App/v1")?.origin == "https://flyrpro.app:443")
  }

  @Test func aTokenForHTTPSLocalhostDoesNotGoToPlainHTTP() async throws {
    let seen = Mutex<[String?]>([])
    let notes = Mutex<[String]>([])
    let next: Next = { request, _, _ in
      seen.withLock { $0.append(request.headerFields[.authorization]) }
      return (HTTPResponse(status: .ok), nil)
    }
    let stored = try #require(AuthMiddleware.origin(scheme: "https", host: "localhost", port: nil))
    let now = try #require(AuthMiddleware.origin(scheme: "http", host: "localhost", port: 80))
    let policy = TokenPolicy(allowed: [stored], withheld: [now: "sign in again"])
    let middleware = AuthMiddleware(policy: policy, note: { note in notes.withLock { $0.append(note) } }) { "t" }
    let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/x")
    for base in ["http://localhost", "http://localhost:80", "https://localhost"] {
      _ = try await middleware.intercept(
        request, body: nil, baseURL: try #require(URL(string: base)), operationID: "x", next: next)
    }
    #expect(seen.withLock { $0 } == [nil, nil, "Bearer t"])
    #expect(
      notes.withLock { $0 } == Array(repeating: "! token withheld from http://localhost:80: sign in again", count: 2))
  }

  @Test func keysStoredWithoutASchemeStandForWhatTheyCanMeanSafely() {
    // `localhost` was https://localhost or http://localhost:80: only the first is kept.
    #expect(AuthMiddleware.origins(ofStoredKey: "localhost") == ["https://localhost:443"])
    // `host:port` named one port: one server answers there, whichever scheme.
    #expect(
      AuthMiddleware.origins(ofStoredKey: "127.0.0.1:8787") == ["http://127.0.0.1:8787", "https://127.0.0.1:8787"])
    #expect(AuthMiddleware.origins(ofStoredKey: "[::1]") == ["https://[::1]:443"])
    #expect(AuthMiddleware.origins(ofStoredKey: "http://a.example:80") == ["http://a.example:80"])
  }
}

/// Issue 44, finding 14: what is already at a path decides how it is written.
@Suite("Atomic writes and what is at the path")
struct WriteTargetTests {
  func type(_ path: String) -> mode_t {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
  }

  @Test func aFIFOIsWrittenInPlace() throws {
    let directory = try TemporaryDirectory()
    let fifo = directory.path + "/fifo"
    #expect(mkfifo(fifo, 0o600) == 0)
    // The test holds both ends, so the write neither waits for a reader nor loses its bytes.
    let reader = open(fifo, O_RDWR | O_NONBLOCK)
    #expect(reader >= 0)
    defer { close(reader) }
    try AtomicFile.write(Data("through the pipe\n".utf8), to: fifo, mode: 0o600)
    #expect(type(fifo) == S_IFIFO, "the FIFO is still there")
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = read(reader, &buffer, buffer.count)
    #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self) == "through the pipe\n")
  }

  @Test func aCharacterDeviceIsWrittenInPlace() throws {
    guard geteuid() == 0 else {
      print("skipped: making a device node needs root")
      return
    }
    let directory = try TemporaryDirectory()
    // Copies of /dev/null (1, 3) and /dev/full (1, 7) (the old way: major << 8 | minor).
    let null = directory.path + "/null"
    let full = directory.path + "/full"
    #expect(mknod(null, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0)
    #expect(mknod(full, S_IFCHR | 0o666, dev_t((1 << 8) | 7)) == 0)
    try AtomicFile.write(Data("gone".utf8), to: null)
    #expect(type(null) == S_IFCHR)
    #expect(throws: DeckError.self) { try AtomicFile.write(Data("no room".utf8), to: full) }
    #expect(type(full) == S_IFCHR)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["full", "null"])
  }

  @Test func aSymbolicLinkIsFollowedToItsFile() throws {
    let directory = try TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: directory.path + "/real", withIntermediateDirectories: true)
    let target = directory.path + "/real/file"
    try Data("old".utf8).write(to: URL(fileURLWithPath: target))
    let link = directory.path + "/link"
    #expect(symlink("real/file", link) == 0)
    try AtomicFile.write(Data("new".utf8), to: link, mode: 0o600)
    #expect(type(link) == S_IFLNK, "the link stays a link")
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
  }

  @Test func aLinkToNothingAndADirectoryAreRefused() throws {
    let directory = try TemporaryDirectory()
    let dangling = directory.path + "/dangling"
    #expect(symlink(directory.path + "/missing", dangling) == 0)
    #expect(throws: DeckError.self) { try AtomicFile.write(Data("x".utf8), to: dangling) }
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/missing"), "nothing created through the link")
    let folder = directory.path + "/folder"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    #expect(throws: DeckError.self) { try AtomicFile.write(Data("x".utf8), to: folder) }
    #expect(type(folder) == S_IFDIR)
  }

  @Test func aRegularFileOrANewNameIsReplacedAtomically() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path + "/file"
    try AtomicFile.write(Data("one".utf8), to: path, mode: 0o600)
    try AtomicFile.write(Data("two".utf8), to: path, mode: 0o600)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "two")
    #expect(try WriteTarget.classify(path) == .replace(path))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["file"])
  }
}
