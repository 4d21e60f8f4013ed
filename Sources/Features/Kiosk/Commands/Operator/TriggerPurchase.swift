import ArgumentParser
import DeckCore
import DeckSupport
import SandboxKioskAPI

struct TriggerPurchase: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "purchase", _superCommandName: "deck",
    abstract: "Create a PENDING review session with its order (as the Square webhook would).",
    discussion: HelpText.discussion(
      """
      The kiosk paired with the store picks the session up on its next poll. Without --item, one
      to three items are picked from the demo boutique's catalogue; without --total, the items'
      prices add up to it; with both, the total is spread over the items. The seeded stores are
      store_demo and store_abc123. Prints the new session (with --json, as the sandbox stores it).
      """, exits: SandboxOperator.exits + [.failure("no such store")]))

  @OptionGroup var global: GlobalOptions

  @Option(help: "The store's public id.")
  var store: String = "store_demo"

  @Option(help: ArgumentHelp("The order total, e.g. 45.99 (dollars and cents).", valueName: "amount"))
  var total: String?

  @Option(name: .customLong("item"), help: ArgumentHelp("An item bought (repeat for more).", valueName: "name"))
  var items: [String] = []

  func validate() throws {
    if let total, Self.cents(total) == nil {
      throw ValidationError("--total must be an amount like 45.99, between 0.01 and 1000000, got \"\(total)\".")
    }
    guard items.count <= 20 else { throw ValidationError("At most 20 --item per purchase, got \(items.count).") }
    if items.contains(where: { $0.trimming(.whitespaces).isEmpty }) {
      throw ValidationError("An --item name is empty.")
    }
    guard !store.trimming(.whitespaces).isEmpty else { throw ValidationError("--store is empty.") }
  }

  func run(_ context: DeckContext) async throws {
    let client = try await SandboxKioskAdmin.client(context)
    let detail = try await client.triggerPurchase(
      path: .init(storeId: store.trimming(.whitespaces)),
      body: .json(.init(totalAmount: total.flatMap(Self.cents), items: items.isEmpty ? nil : items))
    ).created.body.json
    try SandboxKioskAdmin.show(
      detail, context: context,
      message:
        "Purchase at \(detail.storePublicId): review session \(detail.publicId) is PENDING; the paired kiosk picks it up on its next poll."
    )
  }

  /// "45.99", "$45.99", "45" or "45.9" in cents; nil unless 1 cent to $1,000,000.
  static func cents(_ text: String) -> Int? {
    var amount = text.trimming(.whitespaces)
    if amount.hasPrefix("$") { amount.removeFirst() }
    let parts = amount.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), let dollars = Int(parts[0]), dollars >= 0, !parts[0].contains("+"),
      !parts[0].contains("-")
    else { return nil }
    var cents = 0
    if parts.count == 2 {
      let fraction = parts[1]
      guard (1...2).contains(fraction.count), fraction.allSatisfy(\.isNumber), let value = Int(fraction) else {
        return nil
      }
      cents = fraction.count == 1 ? value * 10 : value
    }
    guard dollars <= 1_000_000 else { return nil }
    let total = dollars * 100 + cents
    return (1...100_000_000).contains(total) ? total : nil
  }
}
