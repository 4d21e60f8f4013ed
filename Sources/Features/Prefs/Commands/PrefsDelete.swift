import ArgumentParser
import DeckCore
import DeckSupport
import PrefsRules

struct PrefsDelete: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "delete", _superCommandName: "deck",
    abstract: "Delete a category's stored values; it reads as the defaults again.",
    discussion: HelpText.discussion(
      """
      Removes the stored document (DELETE /api/user/preferences/CATEGORY) and records the change
      to the defaults in the history, which is kept. On a terminal deck first asks for
      confirmation (--yes does not ask); without one it does not ask. When nothing is stored
      there is nothing to delete: deck says so and sends no delete. With --json:
      {category, deleted, changes}.
      """,
      exits: [
        .failure("the confirmation was declined (nothing was deleted)"), .usage(), .unavailable(),
        .unauthorized("not signed in, or a parent deleting the player details"),
      ]))

  @OptionGroup var global: GlobalOptions
  @OptionGroup var target: CategoryOption

  @Flag(name: [.customShort("y"), .long], help: "Do not ask for confirmation.")
  var yes = false

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
    let owner = TerminalText.sanitize(fetched.owner)
    guard fetched.isStored else {
      return try context.output.emit(View(category: category, deleted: false, changes: [])) {
        context.output.info(
          "There was nothing to delete: no \(category.noun) are stored for \(owner) (they read as the defaults).")
      }
    }
    if !yes, let prompt = Self.prompt(context) {
      guard
        await prompt.confirm(
          "Delete the stored \(category.noun) of \(owner)? They will read as the defaults.", default: false)
      else {
        throw DeckError.failure("Nothing was deleted.", hint: "Add --yes to delete without being asked.")
      }
    }
    let deleted = try await service.delete(fetched)
    let changes = deleted ? fetched.value.changes(to: PrefsValue.defaults(for: category)) : []
    let problem = await service.recordQuietly(category, changes)
    try context.output.emit(View(category: category, deleted: deleted, changes: changes)) {
      guard deleted else {
        return context.output.info("There was nothing to delete: the \(category.noun) were deleted meanwhile.")
      }
      context.output.info("Deleted the stored \(category.noun); they read as the defaults now.")
      if !changes.isEmpty { PrefsText(output: context.output).showChanges(changes) }
    }
    if let problem { context.output.info("warning: deleted, but the history entry was not recorded: \(problem)") }
  }

  /// A question needs a person at a terminal (stdin and stdout) and a line reader.
  static func prompt(_ context: DeckContext) -> Prompt? {
    guard TerminalInput.stdinIsTerminal, context.output.stdoutIsTerminal, let reader = context.session.lineReader
    else { return nil }
    return Prompt(reader: reader)
  }
}
