import ArgumentParser
import DeckCore
import DeckSupport
import FoundationEssentials
import SandboxPrefsAPI

struct InspectPrefs: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "prefs", _superCommandName: "deck",
    abstract: "Show a user's preferences as the recruiting service stores them.",
    discussion: HelpText.discussion(
      """
      The user's role (user_metadata.role), the athlete a parent is linked to (or the parents
      linked to an athlete), how many fit score recalculations their player saves triggered,
      and every category: the stored document (null when none), its timestamps and its history,
      newest first. With --json: {email, role, linkedAthlete, linkedParents,
      fitScoreRecalculations, categories: [{category, data, createdAt, updatedAt, history}]}.
      """,
      exits: SandboxOperator.exits + [.failure("no such user"), .usage("not a sandbox")]))

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The user's email.")
  var email: String

  func run(_ context: DeckContext) async throws {
    let client = try await SandboxOperator.client(context, service: .recruiting, path: "/__sandbox/v1/prefs") {
      SandboxPrefsAPI.Client(serverURL: $0, transport: $1, middlewares: $2)
    }
    let inspection = try await client.inspectPrefs(query: .init(email: email)).ok.body.json
    try context.output.emit(inspection) {
      context.output.fields([
        ("email", inspection.email), ("role", inspection.role ?? "-"),
        ("linked athlete", inspection.linkedAthlete ?? "-"),
        ("linked parents", inspection.linkedParents.isEmpty ? "-" : inspection.linkedParents.joined(separator: ", ")),
        ("fit score recalculations", String(inspection.fitScoreRecalculations)),
      ])
      context.output.table(
        ["CATEGORY", "STORED", "UPDATED", "HISTORY"],
        inspection.categories.map { state in
          let stored = state.data.value == nil ? "no" : "yes"
          return [
            state.category.rawValue, stored, state.updatedAt.map { $0.formatted(.iso8601) } ?? "-",
            "\(state.history.count) \(state.history.count == 1 ? "entry" : "entries")",
          ]
        })
    }
  }
}
