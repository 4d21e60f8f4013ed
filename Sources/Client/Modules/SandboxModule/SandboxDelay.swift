import ArgumentParser
import DeckCore

struct SandboxDelay: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "delay", _superCommandName: "deck",
    abstract: "Delay every API response of the sandbox, to try timeouts and Ctrl-C (0 turns it off).",
    discussion: HelpText.discussion("Without a number, prints the delay in force.", exits: SandboxOperator.exits))

  @OptionGroup var global: GlobalOptions

  @Argument(help: "Milliseconds to delay each response (without it, the delay in force is printed).")
  var milliseconds: Int?

  func validate() throws {
    guard let milliseconds else { return }
    guard (0...600_000).contains(milliseconds) else {
      throw ValidationError("The delay must be between 0 and 600000 ms, got \(milliseconds).")
    }
  }

  func run(_ context: DeckContext) async throws {
    guard let milliseconds else {
      let delay = try await SandboxAdmin.client(context).getDelay().ok.body.json
      return try context.output.emit(delay) {
        context.output.line(
          delay.milliseconds == 0
            ? "Responses are not delayed." : "Every API response is delayed by \(delay.milliseconds) ms.")
      }
    }
    let delay = try await SandboxAdmin.client(context).setDelay(body: .json(.init(milliseconds: milliseconds))).ok.body
      .json
    try context.output.emit(
      delay,
      message: delay.milliseconds == 0
        ? "Responses are no longer delayed." : "Every API response is now delayed by \(delay.milliseconds) ms.")
  }
}
