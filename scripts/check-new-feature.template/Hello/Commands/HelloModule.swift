import ArgumentParser
import DeckConfig
import DeckCore
import DeckSupport
import HelloAPI
import HelloRules

/// `deck hello`: the feature scripts/check-new-feature adds.
public enum HelloModule: DeckModule {
  public static let name = "hello"
  public static let services: [Service] = [.hello]
  public static var commands: [any ParsableCommand.Type] { [HelloCommand.self] }
}

extension Service {
  static let hello = Service("hello", summary: "greetings")
}

struct HelloCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "hello", abstract: "Greet someone through the hello service.", subcommands: [HelloGreet.self])
}

struct HelloGreet: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "greet", _superCommandName: "deck", abstract: "Greet NAME.",
    discussion: HelpText.discussion(
      "Asks the hello service for NAME's greeting. With --json, {greeting}.",
      exits: [.usage("the name is empty"), .unavailable("the hello service did not answer")]))

  @OptionGroup var global: GlobalOptions
  @Argument(help: "Who to greet.") var name: String

  struct Result: Encodable { var greeting: String }

  func run(_ context: DeckContext) async throws {
    guard let name = HelloRules.name(name) else {
      throw DeckError.usage("The name is empty.", hint: "Give a name, e.g.: deck hello greet World")
    }
    let client = try await context.client(.hello) { Client(serverURL: $0, transport: $1, middlewares: $2) }
    let greeting = try await client.greet(query: .init(name: name)).ok.body.json.greeting
    try context.output.emit(Result(greeting: greeting)) { context.output.line(greeting) }
  }
}
