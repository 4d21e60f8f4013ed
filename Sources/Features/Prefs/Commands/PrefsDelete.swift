import ArgumentParser
import DeckCore
import PrefsRules

struct PrefsDelete: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "delete", _superCommandName: "deck",
    abstract: "Delete a category's stored values; it reads as the defaults again.",
    discussion: HelpText.discussion(
      """
      Removes the stored document (DELETE /api/user/preferences/CATEGORY) and records the change
      to the defaults in the history, which is kept. With --json: {category, deleted, changes}.
      """,
      exits: [.usage(), .unavailable(), .unauthorized("not signed in, or a parent deleting the player details")]))

  @OptionGroup var global: GlobalOptions
  @OptionGroup var target: CategoryOption

  struct View: Encodable {
    var category: PrefsCategory
    var deleted: Bool
    var changes: [FieldChange]
  }

  func run(_ context: DeckContext) async throws {
    let category = target.category
    let service = PrefsService(context: context)
    try await service.requireWritable(category)
    let fetched = try await service.fetch(category)
    if fetched.readOnly { throw PrefsService.readOnly(email: nil) }
    let deleted = try await service.delete(category)
    let changes = deleted ? fetched.value.changes(to: PrefsValue.defaults(for: category)) : []
    let problem = await service.recordQuietly(category, changes)
    try context.output.emit(View(category: category, deleted: deleted, changes: changes)) {
      guard deleted else { return context.output.info("Nothing was stored for the \(category.noun).") }
      context.output.info("Deleted the stored \(category.noun); they read as the defaults now.")
      PrefsText(output: context.output).showChanges(changes)
    }
    if let problem { context.output.info("warning: deleted, but the history entry was not recorded: \(problem)") }
  }
}
