import ArgumentParser
import DeckCore

struct AuthSwitch: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "switch", _superCommandName: "deck", abstract: "Make another signed-in account the active one.")

  @OptionGroup var global: GlobalOptions

  @Argument(
    help: "The account's email.",
    completion: .custom { _, _, prefix in DynamicCompletion.values(AccountCompletion.self, prefix: prefix) })
  var email: String

  func run(_ context: DeckContext) async throws {
    let environment = try context.environment()
    let email = try Credentials.validateEmail(email)
    try context.tokenStore.switchAccount(to: email, in: environment.name)
    try context.output.emit(
      ["environment": environment.name, "active": email],
      message: "Switched to \(email) in environment \"\(environment.name)\".")
  }
}
