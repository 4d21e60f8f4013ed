import DeckAuth
import DeckConfig
import DeckCore
import DeckNetworking
import DeckREPL
import DeckSupport
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// deck's files: directories it refuses, locks, atomic writes, the history, and token refreshes
/// shared between processes.
@Suite("Files: directories, locks, atomic writes, history")
struct FileSafetyTests {
  init() { FeatureServices.register() }

  @Test func aWritableConfigDirectoryIsRefused() throws {
    let directory = try TemporaryDirectory()
    let deck = directory.path + "/deck"
    try FileManager.default.createDirectory(atPath: deck, withIntermediateDirectories: true)
    chmod(deck, 0o777)
    let config = #expect(throws: DeckError.self) { try ConfigStore(path: deck + "/config.yml").load() }
    #expect(config?.hint?.contains("chmod go-w \(deck)") == true)
    let tokens = #expect(throws: DeckError.self) {
      try TokenStore(path: deck + "/tokens.json").save(
        StoredSession(email: "a@x.test", accessToken: "t", refreshToken: nil, expiresAt: nil), in: "sandbox")
    }
    #expect(tokens?.exitCode == ExitCode.failure)
    #expect(!FileManager.default.fileExists(atPath: deck + "/tokens.json"), "nothing written into it")
    chmod(deck, 0o700)
    _ = try ConfigStore(path: deck + "/config.yml").load()
  }

  @Test func withoutHomeThereIsNoFallbackDirectory() {
    let paths = DeckPaths(environment: [:])
    #expect(!paths.configDirectory.hasPrefix("/tmp"))
    let error = #expect(throws: DeckError.self) { try ConfigStore(path: paths.configFile).save(ConfigFile()) }
    #expect(error?.message.contains("HOME is not set") == true)
    #expect(!FileManager.default.fileExists(atPath: paths.configDirectory))
  }

  @Test func historySizeIsClamped() throws {
    #expect(HistoryFile.limit(fromVariable: "100000000000000000") == HistoryFile.maxLimit)
    #expect(HistoryFile.limit(fromVariable: "100000000000000000000000000000") == HistoryFile.maxLimit)
    #expect(HistoryFile.limit(fromVariable: "0") == 1)
    #expect(HistoryFile.limit(fromVariable: "-5") == 5000)
    #expect(HistoryFile.limit(fromVariable: "abc") == 5000)
    #expect(HistoryFile.limit(fromVariable: nil) == 5000)
    #expect(HistoryFile.limit(fromVariable: "200") == 200)
    // Before: 256 * limit overflowed and trapped on the first append.
    let directory = try TemporaryDirectory()
    let history = HistoryFile(path: directory.path + "/state/history", limit: Int.max)
    try history.append("brokerage search keller")
    #expect(history.load() == ["brokerage search keller"])
  }

  @Test func parallelTokenWritersLoseNothing() async throws {
    let directory = try TemporaryDirectory()
    let store = TokenStore(path: directory.path + "/deck/tokens.json")
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<16 {
        group.addTask {
          try? store.save(
            StoredSession(email: "u\(index)@x.test", accessToken: "t\(index)", refreshToken: nil, expiresAt: nil),
            in: "sandbox")
        }
      }
    }
    #expect(try store.accounts(in: "sandbox").accounts.count == 16)
  }

  @Test func parallelConfigWritersLoseNothing() async throws {
    let directory = try TemporaryDirectory()
    let store = ConfigStore(path: directory.path + "/deck/config.yml")
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<16 {
        group.addTask { try? store.update { $0.setEntry("env\(index)", ConfigFile.Entry()) } }
      }
    }
    #expect(try store.load().environments.count == 16)
  }

  @Test func aRefreshAlreadyDoneByAnotherProcessIsReused() async throws {
    let directory = try TemporaryDirectory()
    let store = TokenStore(path: directory.path + "/deck/tokens.json")
    let stale = StoredSession(
      email: "a@x.test", accessToken: "old", refreshToken: "r1", expiresAt: Date().addingTimeInterval(-10),
      origins: ["flyrpro.app"])
    try store.save(stale, in: "prod")
    let renewals = Counter()
    // Eight "processes" find the same expired token; the refresh token may be used once only.
    let results = await withTaskGroup(of: String?.self) { group in
      for _ in 0..<8 {
        group.addTask {
          try? await store.refresh(stale, in: "prod") { latest in
            renewals.increment()
            guard latest.refreshToken == "r1" else { throw DeckError.failure("refresh token reused") }
            try await Task.sleep(for: .milliseconds(20))
            return StoredSession(
              email: latest.email, accessToken: "new", refreshToken: "r2", expiresAt: Date().addingTimeInterval(3600))
          }.accessToken
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results == Array(repeating: "new", count: 8))
    #expect(renewals.value == 1)
    #expect(try store.accounts(in: "prod").activeSession?.origins == ["flyrpro.app"])
  }

  @Test func atomicWritesLeaveTheNewContentAndSyncTheDirectory() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path + "/file"
    try AtomicFile.write(Data("one".utf8), to: path)
    try AtomicFile.write(Data("two".utf8), to: path, mode: 0o600)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "two")
    try AtomicFile.syncDirectory(directory.path)
    #expect(throws: DeckError.self) { try AtomicFile.syncDirectory(directory.path + "/missing") }
  }
}

@Suite("Inputs the fuzzers found")
struct FuzzRegressionTests {
  init() { FeatureServices.register() }

  /// fuzz/corpus/shellwords/regression-*: a quote followed by a combining mark (one grapheme
  /// cluster) was not seen as a quote, so `quote` did not round-trip.
  @Test(arguments: ["\u{748}\u{FFFD}(((\u{FFFD}\u{FFFD}", "\"\u{748}\u{FFFD}(p", "'\u{301}", "\\\u{301}x"])
  func quotingRoundTripsWithCombiningMarks(word: String) {
    #expect(ShellWords.split(ShellWords.quote(word)) == .words([word]))
  }

  /// fuzz/corpus/config/regression-*: a `"` followed by a combining mark was not escaped when
  /// deck rewrote config.yml, so the rewritten file no longer parsed.
  @Test(arguments: [
    "iing  envi\"\u{5AD}mst", "a\\\u{301}b", "tab\there", "-", "a:", "~", "y", "123", "\u{85}x", "\u{2028}",
  ])
  func configValuesSurviveARewrite(current: String) throws {
    let file = ConfigFile(current: current, environments: [("e1", ConfigFile.Entry(urls: [.flyr: "https://a.com"]))])
    #expect(try ConfigFile.parse(file.render(), path: "config.yml") == file, "\(file.render())")
  }

  /// fuzz/corpus/retryafter/regression-*: `attempt - 1` overflowed for Int.min.
  @Test func anyAttemptNumberIsSafe() {
    for attempt in [Int.min, -1, 0, 1, Int.max] {
      #expect(RetryPolicy.default.delay(afterAttempt: attempt, retryAfter: nil, jitter: 0.5) != nil)
    }
  }

  @Test func implausibleJWTDatesAreIgnored() throws {
    func token(_ payload: String) -> String {
      let encoded = Data(payload.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
      return "eyJhbGciOiJIUzI1NiJ9.\(encoded).c2ln"
    }
    let huge = try #require(JWTClaims(token: token(#"{"exp":1e300,"iat":true,"email":"a@b.co"}"#)))
    #expect(huge.expiresAt == nil)
    #expect(huge.issuedAt == nil)
    #expect(huge.email == "a@b.co")
    #expect(JWTClaims(token: token(#"{"exp":1700000000}"#))?.expiresAt == Date(timeIntervalSince1970: 1_700_000_000))
  }

  /// The preferences role comes from `user_metadata`; metadata that is not an object (or a role
  /// that is not text) never costs the token its other claims.
  @Test func roleIsReadFromUserMetadata() throws {
    func token(_ payload: String) -> String {
      let encoded = Data(payload.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
      return "eyJhbGciOiJIUzI1NiJ9.\(encoded).c2ln"
    }
    let parent = try #require(
      JWTClaims(token: token(#"{"exp":1700000000,"user_metadata":{"role":"parent","n":{"x":1}}}"#)))
    #expect(parent.role == "parent")
    #expect(parent.userMetadata == ["role": "parent"])
    for odd in [#""user_metadata":"parent""#, #""user_metadata":[1,2]"#, #""user_metadata":{"role":7}"#] {
      let claims = try #require(JWTClaims(token: token("{\"exp\":1700000000,\(odd)}")), "\(odd)")
      #expect(claims.role == nil, "\(odd)")
      #expect(claims.expiresAt == Date(timeIntervalSince1970: 1_700_000_000), "\(odd)")
    }
  }
}

final class Counter: Sendable {
  private let count = Mutex(0)
  func increment() { count.withLock { $0 += 1 } }
  var value: Int { count.withLock { $0 } }
}
