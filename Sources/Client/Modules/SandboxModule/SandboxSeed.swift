import ArgumentParser
import DeckCore
import SandboxAdminAPI

struct SandboxSeed: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "seed", _superCommandName: "deck",
    abstract:
      "Seed the demo data (each feature's, and owner@sandbox.test / sandbox), or add synthetic data for benchmarks.",
    discussion: HelpText.discussion(
      """
      --synthetic KIND=COUNT adds COUNT generated rows of a kind of synthetic data a feature \
      declares (its README names them; the sandbox lists them when a kind is unknown).
      """,
      exits: SandboxOperator.exits))

  @OptionGroup var global: GlobalOptions

  @Option(
    name: .customLong("synthetic"),
    help: ArgumentHelp(
      "Add COUNT synthetic rows of KIND (up to 1,000,000; repeatable).", valueName: "kind=count"))
  var synthetic: [String] = []

  /// The kinds and counts `--synthetic` asks for, in the order given (a kind given twice counts
  /// as its last value).
  func syntheticCounts() throws -> [(kind: String, count: Int)] {
    var counts: [(kind: String, count: Int)] = []
    for text in synthetic {
      let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts.count == 2, !parts[0].isEmpty, let count = Int(parts[1]) else {
        throw ValidationError("--synthetic takes KIND=COUNT (a kind of synthetic data and a number), got \"\(text)\".")
      }
      let kind = String(parts[0])
      guard (0...1_000_000).contains(count) else {
        throw ValidationError("--synthetic \(kind) must be between 0 and 1000000, got \(count).")
      }
      if let index = counts.firstIndex(where: { $0.kind == kind }) {
        counts[index].count = count
      } else {
        counts.append((kind, count))
      }
    }
    return counts
  }

  func validate() throws { _ = try syntheticCounts() }

  func run(_ context: DeckContext) async throws {
    let counts = try syntheticCounts()
    let synthetic =
      counts.isEmpty
      ? nil
      : Components.Schemas.SeedRequest.syntheticPayload(
        additionalProperties: Dictionary(uniqueKeysWithValues: counts.map { ($0.kind, $0.count) }))
    let info = try await SandboxAdmin.client(context).seed(body: .json(.init(synthetic: synthetic))).ok.body.json
    let added = counts.map { "\($0.count) synthetic \($0.kind)" }
    try SandboxAdmin.show(
      info, context: context, message: added.isEmpty ? "Seeded the demo data." : "Added \(HelpText.list(added)).")
  }
}
