import ArgumentParser
import DeckCore
import DeckSupport

struct AuthSwitch: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "switch", _superCommandName: "deck", abstract: "Make another signed-in account the active one.",
    discussion: HelpText.discussion(exits: [
      .usage("no account named (the signed-in ones are listed), or no such account")
    ]))

  @OptionGroup var global: GlobalOptions

  @Argument(
    help: "The account's email (without it, the signed-in accounts are listed).",
    completion: .custom { _, _, prefix in DynamicCompletion.values(AccountCompletion.self, prefix: prefix) })
  var email: String?

  func run(_ context: DeckContext) async throws {
    let environment = try context.environment()
    guard let named = email else {
      let accounts = try context.tokenStore.accounts(in: environment.name)
      let names = accounts.accounts.keys.sorted().map { $0 == accounts.active ? "\($0) (active)" : $0 }
      throw DeckError.usage(
        "Name the account to switch to.",
        hint: names.isEmpty
          ? "No account is signed in to environment \"\(environment.name)\": deck auth login --email EMAIL --password-stdin"
          : "Signed-in accounts in \"\(environment.name)\": \(names.joined(separator: ", ")).")
    }
    let email = try Credentials.validateEmail(named)
    try context.tokenStore.switchAccount(to: email, in: environment.name)
    try context.output.emit(
      ["environment": environment.name, "active": email],
      message: "Switched to \(email) in environment \"\(environment.name)\".")
  }
}
