import DeckConfig
import DeckSupport
import Foundation
import TestFixtures
import Testing

@Suite("URLs and environments from input")
struct URLValidationTests {
  init() { FeatureServices.register() }

  @Test(arguments: [
    "http://127.attacker.example", "http://127.0.0.1.attacker.example", "http://localhost.attacker.example",
    "http://127.0.0.01", "http://0x7f.0.0.1", "http://[::2]", "http://[fe80::1]", "http://1270.0.0.1",
  ])
  func lookalikesAreNotLoopback(url: String) throws {
    let host = try #require(ParsedURL(url)).host
    #expect(!URLPolicy.isLoopback(host))
    #expect(throws: DeckError.self) {
      try URLPolicy.validate(url, service: .flyr, environment: "e", allowInsecureHTTP: false)
    }
  }

  @Test(arguments: [
    "http://127.0.0.1:8787", "http://127.1.2.3", "http://localhost:9", "http://LOCALHOST", "http://[::1]:8787",
    "http://[0:0:0:0:0:0:0:1]", "http://[::ffff:127.0.0.1]",
  ])
  func loopbackIsAllowedOverPlainHTTP(url: String) throws {
    #expect(URLPolicy.isLoopback(try #require(ParsedURL(url)).host))
    try URLPolicy.validate(url, service: .flyr, environment: "e", allowInsecureHTTP: false)
  }

  @Test(arguments: [
    "https://a^b.com", "https://a|b.com", "https://a.com/%zz", "https://a`b.com", "https://a\\b.com",
    "https://a.com/x y", "https://exämple.com", "https://a.com:99999", "https://a.com:", "https://[nope]",
    "https://a.com/\u{1B}[2J", "https://", "ftp://a.com", "https://u:p@a.com", "https://a.com/%4",
  ])
  func urlsFoundationRejectsAreRejectedUpFront(url: String) {
    // Before: deck accepted these, then crashed on URL(string:)! (exit 132).
    #expect(ParsedURL(url) == nil)
    let error = #expect(throws: DeckError.self) {
      try URLPolicy.validate(url, service: .recruiting, environment: "e1", allowInsecureHTTP: true)
    }
    #expect(error?.exitCode == ExitCode.usage)
    #expect(error?.message.contains("\u{1B}") == false)
  }

  @Test func everyAcceptedURLIsOneFoundationAccepts() {
    for url in ["https://flyrpro.app", "https://a.com/x%20y?q=1#f", "https://[::1]:443/p", "http://x-y.example:80/"] {
      #expect(ParsedURL(url) != nil, "\(url)")
      #expect(URL(string: url) != nil, "\(url)")
    }
  }

  @Test func aBadURLInTheConfigFileIsABadConfigFile() {
    let text = "environments:\n  e1:\n    recruiting: \"https://a^b.com\"\n"
    let error = #expect(throws: DeckError.self) { try ConfigFile.parse(text, path: "config.yml") }
    #expect(error?.exitCode == ExitCode.failure)
    #expect(error?.message.contains("config.yml:3") == true)
    #expect(error?.message.contains("'^'") == true)
  }

  @Test func aBadOverrideVariableIsReported() {
    let resolver = EnvironmentResolver(
      file: ConfigFile(), processEnvironment: ["DECK_RECRUITING_URL": "https://a|b.com", "DECK_ENV": "production"])
    let error = #expect(throws: DeckError.self) { try resolver.resolve(flag: nil) }
    #expect(error?.message.contains("DECK_RECRUITING_URL") == true)
    #expect(error?.exitCode == ExitCode.failure)
  }

  @Test func anUnknownCurrentEnvironmentInTheFileIsABadConfigFile() throws {
    let file = try ConfigFile.parse("# deck\nenvironments: {}\ncurrent: nope\n", path: "/home/u/config.yml")
    let resolver = EnvironmentResolver(file: file, processEnvironment: [:])
    let error = #expect(throws: DeckError.self) { try resolver.resolve(flag: nil) }
    #expect(error?.exitCode == ExitCode.failure)
    #expect(error?.message == "/home/u/config.yml:3: `current` names an unknown environment, \"nope\".")
    let flag = #expect(throws: DeckError.self) { try resolver.resolve(flag: "nope") }
    #expect(flag?.exitCode == ExitCode.usage)
  }
}
