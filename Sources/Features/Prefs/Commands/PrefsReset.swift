import ArgumentParser
import DeckCore
import PrefsRules

struct PrefsReset: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "reset", _superCommandName: "deck",
    abstract: "Reset notifications or the dashboard to the defaults (Reset to Defaults).",
    discussion: HelpText.discussion(
      """
      The app's Reset to Defaults, which only the notifications and dashboard pages have: the
      defaults are saved (every notification on except High-Priority Only, reminders every 7 days;
      every card and widget shown) and the changes recorded. For the other categories use
      deck prefs delete, which removes what is stored.
      """,
      exits: [
        .usage("a category without Reset to Defaults (nothing was sent)"), .rejected(), .unavailable(), .unauthorized(),
      ]))

  @OptionGroup var global: GlobalOptions
  @OptionGroup var target: CategoryOption

  func validate() throws {
    guard [.notifications, .dashboard].contains(target.category) else {
      throw ValidationError(
        "Only notifications and dashboard have Reset to Defaults; to remove the stored \(target.category.noun) use: deck prefs delete \(target.category.rawValue)"
      )
    }
  }

  func run(_ context: DeckContext) async throws {
    let category = target.category
    try await PrefsUpdate(context: context, category: category).run { _ in PrefsValue.defaults(for: category) }
  }
}
