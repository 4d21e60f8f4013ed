import ArgumentParser
import DeckCore

struct AuthToken: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "token", _superCommandName: "deck",
    abstract: "Print the active account's access token (refreshed if expired), for scripts and plugins.",
    discussion: HelpText.discussion(
      exits: [
        .unavailable("the token expired and the auth service cannot be reached to refresh it"),
        .unauthorized("not signed in, or the session expired and could not be refreshed"),
      ]))

  @OptionGroup var global: GlobalOptions

  func run(_ context: DeckContext) async throws {
    let token = try await context.accessToken()
    try context.output.emit(["token": token]) { context.output.line(token) }
  }
}
