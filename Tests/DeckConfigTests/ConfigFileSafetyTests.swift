import DeckAuth
import DeckConfig
import DeckSupport
import Foundation
import TestFixtures
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Config files: directories, parallel writers, rewrites")
struct ConfigFileSafetyTests {
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

  /// fuzz/corpus/config/regression-*: a `"` followed by a combining mark was not escaped when
  /// deck rewrote config.yml, so the rewritten file no longer parsed.
  @Test(arguments: [
    "iing  envi\"\u{5AD}mst", "a\\\u{301}b", "tab\there", "-", "a:", "~", "y", "123", "\u{85}x", "\u{2028}",
  ])
  func configValuesSurviveARewrite(current: String) throws {
    let file = ConfigFile(current: current, environments: [("e1", ConfigFile.Entry(urls: [.flyr: "https://a.com"]))])
    #expect(try ConfigFile.parse(file.render(), path: "config.yml") == file, "\(file.render())")
  }
}
