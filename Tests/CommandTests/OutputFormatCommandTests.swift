import Foundation
import TestSupport
import Testing
import Yams

/// `--format` and `--jq` on real commands (the built-in modules and the fixture feature), run
/// in-process against the embedded sandbox.
@Suite("Output formats in-process", .serialized, .timeLimit(.minutes(2)))
struct OutputFormatCommandTests {
  let deck: InProcessDeck

  init() async throws { deck = try await InProcessDeck(features: .fixture) }

  @Test("--json is --format json, byte for byte, before or after the command")
  func jsonIsFormatJSON() async {
    let short = await deck.run(["fixture", "search", "alpha", "--limit", "4", "--json"])
    let long = await deck.run(["fixture", "search", "alpha", "--limit", "4", "--format", "json"])
    let before = await deck.run(["--format", "json", "fixture", "search", "alpha", "--limit", "4"])
    #expect(short.status == 0, "\(short.stderr)")
    #expect(short.stdout.hasPrefix(#"[{"id":""#))
    #expect(long.stdout == short.stdout)
    #expect(before.stdout == short.stdout)
    let both = await deck.run(["env", "show", "--json", "--format", "json"])
    #expect(both.status == 0)
  }

  @Test("--format csv: a header row and a row per result, in the JSON's columns")
  func csvSearch() async throws {
    let json = await deck.run(["fixture", "search", "realty", "--limit", "20", "--json"])
    let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: String]])
    let csv = await deck.run(["fixture", "search", "realty", "--limit", "20", "--format", "csv"])
    #expect(csv.status == 0, "\(csv.stderr)")
    #expect(csv.stderr.isEmpty)
    let expected =
      "id,name\n"
      + rows.map { row in
        let name = row["name"] ?? ""
        return "\(row["id"] ?? ""),\(name.contains(",") ? "\"\(name)\"" : name)\n"
      }.joined()
    #expect(csv.stdout == expected)
    #expect(rows.count == 4)
    #expect(csv.stdout.contains(#","Alpha Realty, West""#))
  }

  @Test("--format csv on key/value output: field,value rows")
  func csvFields() async throws {
    let csv = await deck.run(["env", "show", "sandbox", "--format", "csv"])
    #expect(csv.status == 0, "\(csv.stderr)")
    let lines = csv.stdout.split(separator: "\n")
    #expect(lines.first == "field,value")
    #expect(lines.contains("name,sandbox"))
    #expect(lines.contains("embedded,true"))
  }

  @Test("--format yaml renders the same data as --json")
  func yamlIsTheJSONData() async throws {
    let json = await deck.run(["env", "list", "--json"])
    let yaml = await deck.run(["env", "list", "--format", "yaml"])
    #expect(yaml.status == 0, "\(yaml.stderr)")
    #expect(yaml.stdout.hasPrefix("- allowInsecureHttp: false\n"))
    let fromJSON = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
    let fromYAML = try #require(try Yams.load(yaml: yaml.stdout) as? [[String: Any]])
    #expect(fromYAML.compactMap { $0["name"] as? String } == fromJSON.compactMap { $0["name"] as? String })
    #expect(fromYAML.compactMap { $0["current"] as? Bool } == fromJSON.compactMap { $0["current"] as? Bool })
  }

  @Test("--jq: strings raw, one result per line, other values as compact JSON")
  func jq() async throws {
    let name = await deck.run(["fixture", "search", "alpha homes", "--jq", ".[0].name"])
    #expect(name.status == 0, "\(name.stderr)")
    #expect(name.stdout == "Alpha Homes\n")
    let names = await deck.run(["fixture", "search", "alpha", "--limit", "3", "--jq", ".[].name"])
    #expect(names.stdout.split(separator: "\n").count == 3)
    #expect(names.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("Alpha") })
    let object = await deck.run(["env", "show", "sandbox", "--jq", "{name, embedded}"])
    #expect(object.stdout == #"{"name":"sandbox","embedded":true}"# + "\n", "jq's key order, as jq -c prints it")
  }

  @Test("a bad --jq expression is a usage error (64) with jq's message, and nothing runs")
  func badJQ() async throws {
    let result = await deck.run(["env", "add", "never", "--jq", ".[0"])
    #expect(result.status == 64)
    #expect(result.stderr.contains("jq: error: syntax error"), "\(result.stderr)")
    #expect(result.stderr.contains("jq: 1 compile error"))
    #expect(result.stdout.isEmpty)
    #expect(await deck.run(["env", "show", "never"]).status == 64, "the environment was not added")
    let combined = await deck.run(["env", "list", "--jq", ".", "--format", "csv"])
    #expect(combined.status == 64)
    #expect(combined.stderr.contains("--jq filters JSON; it cannot go with --format csv"))
    let conflicting = await deck.run(["env", "list", "--json", "--format", "yaml"])
    #expect(conflicting.status == 64)
  }

  @Test("a jq program that fails on the data exits 1 with jq's error")
  func jqRuntimeError() async {
    let result = await deck.run(["env", "list", "--jq", ".name"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("error: jq: Cannot index array with"), "\(result.stderr)")
  }
}
