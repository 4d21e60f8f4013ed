import DeckConfig
import DeckSupport
import Foundation
import TestFixtures
import Testing

@Suite("Environment precedence and the config file")
struct ConfigTests {
  init() { FeatureServices.register() }

  let file = ConfigFile(
    current: "staging",
    environments: [
      ("staging", .init(urls: [.flyr: "https://staging.flyrpro.app"])),
      ("mine", .init(urls: [.flyr: "http://127.0.0.1:9000"], isSandbox: true)),
    ])

  @Test func flagWinsOverEverything() throws {
    let resolver = EnvironmentResolver(file: file, processEnvironment: ["DECK_ENV": "mine"])
    let environment = try resolver.resolve(flag: "production")
    #expect(environment.name == "production")
    #expect(environment.source == .flag)
  }

  @Test func deckEnvWinsOverTheFile() throws {
    let resolver = EnvironmentResolver(file: file, processEnvironment: ["DECK_ENV": "mine"])
    let environment = try resolver.resolve(flag: nil)
    #expect(environment.name == "mine")
    #expect(environment.source == .variable)
  }

  @Test func fileWinsOverTheDefault() throws {
    let environment = try EnvironmentResolver(file: file, processEnvironment: [:]).resolve(flag: nil)
    #expect(environment.name == "staging")
    #expect(environment.source == .file)
    #expect(try environment.endpoint(for: .flyr) == .url("https://staging.flyrpro.app"))
  }

  @Test func sandboxIsTheDefault() throws {
    let environment = try EnvironmentResolver(file: ConfigFile(), processEnvironment: [:]).resolve(flag: nil)
    #expect(environment.name == "sandbox")
    #expect(environment.source == .builtinDefault)
    #expect(try environment.endpoint(for: .kiosk) == .localSandbox)
  }

  @Test func serviceVariableOverridesOneURL() throws {
    let resolver = EnvironmentResolver(
      file: file, processEnvironment: ["DECK_FLYR_URL": "https://override.example.com"])
    let environment = try resolver.resolve(flag: "production")
    #expect(try environment.endpoint(for: .flyr) == .url("https://override.example.com"))
    #expect(try environment.endpoint(for: .nudge) == .url("https://api.nudge.starshape.in"))
    #expect(environment.overriddenServices == [.flyr])
  }

  @Test func builtinHostsAreTheSpecs() throws {
    let resolver = EnvironmentResolver(file: ConfigFile(), processEnvironment: [:])
    #expect(resolver.definition("production")?.urls[.flyr] == "https://flyrpro.app")
    #expect(resolver.definition("dev")?.urls[.nudge] == "https://api-dev.nudge.starshape.in")
    #expect(resolver.definition("staging")?.urls[.nudge] == "https://api-staging.nudge.starshape.in")
    #expect(resolver.definition("local")?.urls[.kiosk] == "http://127.0.0.1:8787")
    #expect(resolver.definition("staging")?.urls[.flyr] == nil)
  }

  @Test func missingServiceURLNamesTheFix() throws {
    let environment = try EnvironmentResolver(file: ConfigFile(), processEnvironment: [:]).resolve(flag: "staging")
    let error = #expect(throws: DeckError.self) { try environment.endpoint(for: .kiosk) }
    #expect(error?.hint?.contains("deck env set staging kiosk=") == true)
  }

  @Test func unknownEnvironmentIsAUsageError() throws {
    let error = #expect(throws: DeckError.self) {
      try EnvironmentResolver(file: ConfigFile(), processEnvironment: ["DECK_ENV": "nope"]).resolve(flag: nil)
    }
    #expect(error?.exitCode == 64)
    #expect(error?.message.contains("DECK_ENV") == true)
  }

  @Test func plainHTTPOnlyToLoopbackUnlessAllowed() throws {
    let insecure = ConfigFile(environments: [("lab", .init(urls: [.flyr: "http://10.0.0.5:8080"]))])
    #expect(throws: DeckError.self) {
      try EnvironmentResolver(file: insecure, processEnvironment: [:]).resolve(flag: "lab")
    }
    let allowed = ConfigFile(
      environments: [("lab", .init(urls: [.flyr: "http://10.0.0.5:8080"], allowInsecureHTTP: true))])
    #expect(throws: Never.self) { try EnvironmentResolver(file: allowed, processEnvironment: [:]).resolve(flag: "lab") }
    #expect(throws: DeckError.self) {
      try EnvironmentResolver(file: ConfigFile(), processEnvironment: ["DECK_FLYR_URL": "http://example.com"])
        .resolve(flag: "production")
    }
  }

  @Test func renderedFileParsesBackTheSame() throws {
    let text = file.render()
    #expect(try ConfigFile.parse(text, path: "config.yml") == file)
  }

  @Test func malformedYAMLNamesFileAndLine() throws {
    let text = "current: staging\nenvironments:\n  staging:\n    flyr: [unclosed\n"
    let error = #expect(throws: DeckError.self) { try ConfigFile.parse(text, path: "/tmp/config.yml") }
    #expect(error?.message.hasPrefix("/tmp/config.yml") == true)
    #expect(error?.message.contains("line") == true)
  }

  @Test func unknownServiceNamesItsLine() throws {
    let text = "current: staging\nenvironments:\n  staging:\n    flyrr: https://x.example.com\n"
    let error = #expect(throws: DeckError.self) { try ConfigFile.parse(text, path: "config.yml") }
    #expect(error?.message.hasPrefix("config.yml:4") == true)
    #expect(error?.message.contains("flyrr") == true)
  }

  @Test func malformedFileIsNeverOverwritten() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path + "/config.yml"
    let broken = "current: [\n"
    try broken.write(toFile: path, atomically: true, encoding: .utf8)
    #expect(throws: DeckError.self) { try ConfigStore(path: path).load() }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == broken)
  }

  @Test func storeWritesAtomicallyAndLeavesNoTemporaryFiles() throws {
    let directory = try TemporaryDirectory()
    let store = ConfigStore(path: directory.path + "/deck/config.yml")
    try store.save(file)
    try store.save(file)
    #expect(try store.load() == file)
    // The lock file (config.yml.lock) stays, empty; no temporary file does.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path + "/deck").sorted() == [
        "config.yml", "config.yml.lock",
      ])
  }

  @Test func pathsFollowXDG() {
    let explicit = DeckPaths(environment: ["HOME": "/h", "DECK_CONFIG_DIR": "/c", "XDG_CONFIG_HOME": "/x"])
    #expect(explicit.configFile == "/c/config.yml")
    let xdg = DeckPaths(environment: [
      "HOME": "/h", "XDG_CONFIG_HOME": "/x", "XDG_STATE_HOME": "/s", "XDG_DATA_HOME": "/d",
    ])
    #expect(xdg.configFile == "/x/deck/config.yml")
    #expect(xdg.historyFile == "/s/deck/history")
    #expect(xdg.sandboxDatabase == "/d/deck/sandbox.sqlite")
    let home = DeckPaths(environment: ["HOME": "/h"])
    #expect(home.configFile == "/h/.config/deck/config.yml")
    #expect(home.sandboxDatabase == "/h/.local/share/deck/sandbox.sqlite")
  }
}
