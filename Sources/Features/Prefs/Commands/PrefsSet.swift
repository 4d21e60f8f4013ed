import ArgumentParser
import DeckCore
import DeckSupport
import PrefsRules

struct PrefsSet: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "set", _superCommandName: "deck", abstract: "Change fields of a category: key=value …",
    discussion: HelpText.discussion(
      """
      Keys are the JSON names (any case, - or _ ignored: graduation-year), plus aliases such as
      height, sat, act, twitter, lat and lon. Values are typed: whole numbers, numbers, booleans
      (true/false, yes/no, on/off, 1/0), lists comma-separated (positions=SS,2B), heights as
      5'11" or inches. key= clears an optional field. Text is trimmed and state codes upper-cased.
      Everything is checked before anything is sent: an unknown key or a value out of range exits
      64 naming the field, the value and what is allowed (every problem at once). Positions must
      be the primary sport's (short forms such as SS are stored by name: Shortstop). A nested notification setting can only
      be set while its toggle is on (set both in one command: enableEmailNotifications=true
      emailOnlyHighPriority=true).

      The player details are sent as a PATCH of the fields that change; the other categories
      whole. What changed is printed and recorded in the history. School preferences are a list:
      use deck prefs school.

      $ deck prefs set notifications followUpReminderDays=14 enableDailyDigest=off
      $ deck prefs set player sport=Baseball positions=SS,2B height=5'11"

      The keys of each category, with their type and what they allow:
      """ + "\n\n" + PrefsHelp.setKeys,
      exits: [
        .usage("an unknown key, a bad value, or school (nothing was sent)"), .rejected(), .unavailable(),
        .unauthorized("not signed in, or a parent changing the player details"),
      ]))

  @OptionGroup var global: GlobalOptions
  @OptionGroup var target: CategoryOption

  @Argument(
    help: ArgumentHelp("The changes, as key=value.", valueName: "key=value"),
    completion: .custom { words, _, prefix in PrefsCompletion.assignments(words: words, prefix: prefix) })
  var assignments: [String] = []

  func validate() throws {
    guard !assignments.isEmpty else {
      throw ValidationError("Give at least one key=value, e.g. deck prefs set notifications followUpReminderDays=14")
    }
  }

  func run(_ context: DeckContext) async throws {
    let category = target.category
    // Typed and validated before anything is sent: on the defaults first, then on the stored value.
    do {
      _ = try PrefsValue.defaults(for: category).applying(assignments)
    } catch {
      throw invalid(error)
    }
    try await PrefsUpdate(context: context, category: category).run { stored in
      do throws(Validation) { return try stored.applying(assignments).value } catch { throw invalid(error) }
    }
  }

  /// The refusal, with what to do when a new sport refuses the stored positions.
  func invalid(_ validation: Validation) -> DeckError {
    PrefsProblem.invalid(
      validation, target.category.noun, hint: PlayerDetails.sportChangeHint(assignments, validation))
  }
}
