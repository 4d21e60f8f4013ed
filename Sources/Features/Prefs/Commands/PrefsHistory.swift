import ArgumentParser
import DeckCore
import DeckSupport
import FoundationEssentials
import PrefsRules

struct PrefsHistory: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "history", _superCommandName: "deck", abstract: "Show a category's recorded changes, newest first.",
    discussion: HelpText.discussion(
      """
      One row per changed field: when, the field, old → new ((unset) for no value), and who.
      A parent sees the linked athlete's player history. With --json: [{id, category, field,
      old, new, changedAt, changedBy}].
      """,
      exits: [.usage(), .unavailable(), .unauthorized()]))

  @OptionGroup var global: GlobalOptions
  @OptionGroup var target: CategoryOption

  @Option(help: "At most this many entries (1-1000).")
  var limit = 50

  func validate() throws {
    guard (1...1000).contains(limit) else { throw ValidationError("--limit must be between 1 and 1000, got \(limit).") }
  }

  /// An entry as --json prints it: `old` and `new` are null when unset.
  struct Entry: Encodable {
    var id: Int
    var category: PrefsCategory
    var field: String
    @ExplicitNull var old: String?
    @ExplicitNull var new: String?
    var changedAt: Date
    var changedBy: String
  }

  func run(_ context: DeckContext) async throws {
    let entries = try await PrefsService(context: context).history(target.category, limit: limit)
    let view = entries.map {
      Entry(
        id: $0.id, category: target.category, field: $0.field, old: $0.old, new: $0.new, changedAt: $0.changedAt,
        changedBy: $0.changedBy)
    }
    try context.output.emit(view) {
      guard !entries.isEmpty else { return context.output.info("No recorded changes to the \(target.category.noun).") }
      context.output.table(
        ["WHEN", "FIELD", "CHANGE", "BY"],
        entries.map { entry in
          [
            entry.changedAt.formatted(.iso8601), entry.field,
            FieldChange(field: entry.field, old: entry.old, new: entry.new).transition,
            entry.changedBy,
          ]
        })
    }
  }
}
