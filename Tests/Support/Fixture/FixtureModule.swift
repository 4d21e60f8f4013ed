import ArgumentParser
import DeckConfig
import DeckCore
import DeckNetworking
import Foundation
import HTTPTypes
@_spi(Generated) import OpenAPIRuntime

/// `deck fixture`: the core tests' feature, so that a test of the kernel, the REPL or the
/// built-in modules drives a command that calls a server without naming a product feature.
/// One read command, as a feature's: a query argument, `--limit` checked against a range, a
/// table or `--json` through the output path, its items' names as completions. Its server part is
/// ``FixtureServer``; the in-process harness runs both (`InProcessDeck(features: .fixture)`).
package enum FixtureModule: DeckModule {
  package static let name = "fixture"
  package static let services: [Service] = [.fixture]
  package static var commands: [any ParsableCommand.Type] { [FixtureCommand.self] }
}

extension Service {
  /// The fixture's service: no default URL, so the local sandbox (or `DECK_FIXTURE_URL`).
  package static let fixture = Service("fixture", summary: "the core tests' fixture")
}

struct FixtureCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fixture", abstract: "The core tests' fixture feature.",
    discussion: HelpText.discussion(exits: [.usage(), .unavailable()]), subcommands: [FixtureSearch.self])
}

struct FixtureSearch: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "search", _superCommandName: "deck", abstract: "Search the fixture's items by name.",
    discussion: HelpText.discussion(
      "Names that contain the query, in the fixture's order. With --json, the response's array of {id, name}.",
      exits: [.usage(), .unavailable()]))

  @OptionGroup var global: GlobalOptions

  @Argument(
    help: "Text to search for (trimmed; case does not matter).",
    completion: .custom { _, _, prefix in FixtureItems.completions(of: prefix) })
  var query: String

  @Option(help: "The most results to return (1-50).")
  var limit: Int = 15

  func validate() throws {
    guard !query.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      throw ValidationError("The search query is empty. Give some text, e.g.: deck fixture search alpha")
    }
    guard FixtureItems.limits.contains(limit) else {
      throw ValidationError("--limit must be between 1 and 50, got \(limit).")
    }
  }

  func run(_ context: DeckContext) async throws {
    let items = try await FixtureClient.search(query, limit: limit, context: context)
    let output = context.output
    try output.emit(items) {
      output.table(["NAME", "ID"], items.map { [$0.name, $0.id] })
    }
  }
}

/// `GET /api/fixture/items?q=&limit=`, sent as a generated client sends an operation (through
/// OpenAPIRuntime's UniversalClient), so that deck's middleware and error presenter treat it as
/// they treat a feature's: errors name the operation, `searchFixtureItems`.
enum FixtureClient {
  static let operationID = "searchFixtureItems"

  static func search(_ query: String, limit: Int, context: DeckContext) async throws -> [FixtureItems.Item] {
    let client = try await context.client(.fixture) {
      UniversalClient(serverURL: $0, transport: $1, middlewares: $2)
    }
    let converter = client.converter
    let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
    return try await client.send(
      input: trimmed, forOperation: operationID,
      serializer: { query in
        var request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: FixtureItems.path)
        try converter.setQueryItemAsURI(in: &request, style: .form, explode: true, name: "q", value: query)
        try converter.setQueryItemAsURI(in: &request, style: .form, explode: true, name: "limit", value: limit)
        request.headerFields[.accept] = "application/json"
        return (request, nil)
      },
      deserializer: { response, body in
        // Error statuses never get here: deck's error mapping middleware turned them into errors.
        guard response.status == .ok else {
          throw UndocumentedResponse.error(service: "fixture", operationID: operationID, status: response.status.code)
        }
        return try await converter.getResponseBodyAsJSON([FixtureItems.Item].self, from: body) { $0 }
      })
  }
}
