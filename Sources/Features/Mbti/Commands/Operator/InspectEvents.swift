import ArgumentParser
import DeckCore
import DeckSupport
import FoundationEssentials
import SandboxMbtiAPI

struct InspectEvents: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "events", _superCommandName: "deck",
    abstract: "Show the MBTI quiz's events as the nudge service stored them.",
    discussion: HelpText.discussion(
      """
      The newest --limit events (1000 unless given), oldest first; --user and --type narrow them
      down. With --json, an array of {id, user_id, event_type, details, created_at}.
      """,
      exits: SandboxOperator.exits))

  @OptionGroup var global: GlobalOptions

  @Option(name: .customLong("user"), help: ArgumentHelp("Only this anonymous user's events.", valueName: "id"))
  var user: String?

  @Option(
    help: ArgumentHelp("Only events of this type.", valueName: "type"),
    completion: .list(["onboarding_take_test", "mbti_page_advance", "mbti_submitted", "mbti_completed"]))
  var type: String?

  @Option(help: "At most this many events, the newest (1-10000).")
  var limit = 1000

  func validate() throws {
    guard (1...10_000).contains(limit) else {
      throw ValidationError("--limit must be between 1 and 10000, got \(limit).")
    }
  }

  func run(_ context: DeckContext) async throws {
    let client = try await SandboxOperator.client(context, service: .nudge, path: "/__sandbox/v1/mbti") {
      SandboxMbtiAPI.Client(serverURL: $0, transport: $1, middlewares: $2)
    }
    let events = try await client.inspectEvents(query: .init(user_id: user, _type: type, limit: limit)).ok.body.json
    try context.output.emit(events) {
      context.output.table(
        ["WHEN", "USER", "EVENT", "DETAILS"],
        events.map { event in
          let details =
            (try? DeckJSON.compactEncoder.encode(event.details)).map { String(decoding: $0, as: UTF8.self) } ?? ""
          return [
            event.created_at.formatted(.iso8601), event.user_id, event.event_type, details == "{}" ? "" : details,
          ]
        })
    }
  }
}
