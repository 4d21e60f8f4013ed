import ArgumentParser
import DeckCore
import SandboxAdminAPI

struct SandboxSeed: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "seed", _superCommandName: "deck",
    abstract:
      "Seed the demo data (brokerages, owner@sandbox.test / sandbox), or add synthetic brokerages for benchmarks.",
    discussion: HelpText.discussion(exits: SandboxOperator.exits))

  @OptionGroup var global: GlobalOptions

  @Option(help: "Add this many synthetic brokerages (up to 1,000,000).")
  var brokerages: Int?

  func validate() throws {
    if let brokerages, !(0...1_000_000).contains(brokerages) {
      throw ValidationError("--brokerages must be between 0 and 1000000, got \(brokerages).")
    }
  }

  func run(_ context: DeckContext) async throws {
    let synthetic = brokerages.map {
      Components.Schemas.SeedRequest.syntheticPayload(additionalProperties: ["brokerages": $0])
    }
    let info = try await SandboxAdmin.client(context).seed(body: .json(.init(synthetic: synthetic))).ok.body.json
    try SandboxAdmin.show(
      info, context: context, message: brokerages.map { "Added \($0) synthetic brokerages." } ?? "Seeded the demo data."
    )
  }
}
