import ArgumentParser
import DeckCore
import DeckSupport
import FoundationEssentials
import PrefsRules

struct PrefsSchool: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "school", abstract: "The school preference list: templates, add, move, remove, list.",
    discussion: HelpText.discussion(
      """
      School preferences are ranked criteria (priority 1 first), each a type with a value and
      optionally a dealbreaker. Every change renumbers the priorities 1 to n and is recorded in
      the history (a move as one change). Types and values:
      """ + "\n\n" + PrefsHelp.schoolTypes,
      exits: [
        .failure("a confirmation was declined (nothing was changed)"), .usage(), .rejected(), .unavailable(),
        .unauthorized(),
      ]),
    subcommands: [SchoolList.self, SchoolTemplateCommand.self, SchoolAdd.self, SchoolMove.self, SchoolRemove.self])

  /// Runs one change of the list through the shared write cycle, then shows the list.
  static func change(
    _ context: DeckContext, before: (FetchedPrefs) async throws -> Void = { _ in },
    _ change: (SchoolPreferences) throws -> SchoolPreferences
  ) async throws {
    try await PrefsUpdate(context: context, category: .school).run(
      { value in
        guard case .school(let school) = value else { return value }
        return .school(try change(school))
      },
      before: before,
      after: { value in
        guard case .school(let school) = value else { return }
        PrefsText(output: context.output).showSchool(school)
      })
  }
}

struct SchoolList: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", _superCommandName: "deck",
    abstract: "Show the list: priority, preference, value, dealbreaker badge, id.",
    discussion: HelpText.discussion(
      "Like deck prefs get school (and like it, shows the cached copy when the service cannot be reached).",
      exits: [.unavailable(), .unauthorized()]))

  @OptionGroup var global: GlobalOptions

  @Flag(help: "Neither show nor keep a cached copy: fail when the service cannot be reached.")
  var noCache = false

  func run(_ context: DeckContext) async throws {
    let fetched = try await PrefsReader(context: context, useCache: !noCache).read(.school).fetched
    guard case .school(let school) = fetched.value else { return }
    try context.output.emit(school) {
      for warning in fetched.warnings { context.output.info("warning: \(warning)") }
      PrefsText(output: context.output).showSchool(school)
    }
  }
}

struct SchoolTemplateCommand: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "template", _superCommandName: "deck", abstract: "Replace the whole list with a template's criteria.",
    discussion: HelpText.discussion(
      """
      Templates (as the app's quick-fill cards): d1-power-conference (Division D1, Power 4,
      scholarship required), academic-excellence (academic rating 4+, medium size, D1 or D3),
      close-to-home (within 300 miles), best-fit (within 500 miles, rating 3+, D1, D2 or D3).
      When the list has preferences, deck first asks on a terminal whether to replace them
      (--yes does not ask); without a terminal it replaces them only with --yes.
      """,
      exits: [
        .failure("the confirmation was declined (nothing was changed)"),
        .usage(
          "an unknown template, or a list with preferences and no terminal to ask on without --yes (nothing was sent)"),
        .rejected(), .unavailable(), .unauthorized(),
      ]))

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The template.", completion: .list(PrefsCompletion.templates))
  var name: String

  @Flag(name: [.customShort("y"), .long], help: "Replace a list that has preferences without asking.")
  var yes = false

  func run(_ context: DeckContext) async throws {
    let template: SchoolTemplate
    do { template = try SchoolTemplate.named(name) } catch { throw PrefsProblem.invalid(error, "template") }
    try await PrefsSchool.change(context, before: confirm(context, template)) {
      $0.applying(template) { UUID().uuidString.lowercased() }
    }
  }

  /// Replacing preferences the user made is asked first: on a terminal a question (no by
  /// default), elsewhere only --yes replaces them.
  func confirm(_ context: DeckContext, _ template: SchoolTemplate) -> (FetchedPrefs) async throws -> Void {
    { [yes] fetched in
      guard !yes, case .school(let school) = fetched.value, !school.preferences.isEmpty else { return }
      let count = school.preferences.count
      let list = "\(count) school preference\(count == 1 ? "" : "s") of \(TerminalText.sanitize(fetched.owner))"
      guard let prompt = PrefsDelete.prompt(context) else {
        throw DeckError.usage(
          "The template \(template.rawValue) would replace the \(list); nothing was sent.",
          hint: "Add --yes to replace them.")
      }
      guard await prompt.confirm("Replace the \(list) with the template \(template.rawValue)?", default: false) else {
        throw DeckError.failure("Nothing was changed.", hint: "Add --yes to replace the list without being asked.")
      }
    }
  }
}

struct SchoolAdd: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "add", _superCommandName: "deck", abstract: "Add a criterion at the lowest priority: TYPE VALUE.",
    discussion: HelpText.discussion(
      """
      $ deck prefs school add division D1,D3 --dealbreaker
      $ deck prefs school add max_distance_miles 500
      $ deck prefs school add preferred_regions "West Coast,Pacific NW"
      """,
      exits: [
        .usage("an unknown type or a bad value (nothing was sent)"), .rejected(), .unavailable(), .unauthorized(),
      ]))

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The preference type.", completion: .list(PrefsCompletion.schoolTypes))
  var type: String

  @Argument(
    help: "The value: a number, yes/no, text, or a comma-separated list.",
    completion: .custom { words, _, prefix in PrefsCompletion.schoolValues(words: words, prefix: prefix) })
  var value: String

  @Flag(help: "Mark it as a dealbreaker.")
  var dealbreaker = false

  func run(_ context: DeckContext) async throws {
    let criterion: SchoolCriterion
    do { criterion = try SchoolCriterion.parse(type: type, value: value) } catch {
      throw PrefsProblem.invalid(error, "school preference")
    }
    try await PrefsSchool.change(context) {
      try $0.adding(criterion, isDealbreaker: dealbreaker, id: UUID().uuidString.lowercased())
    }
  }
}

struct SchoolMove: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "move", _superCommandName: "deck",
    abstract: "Move the preference at priority FROM to priority TO (drag to reorder).",
    discussion: HelpText.discussion(
      "The others shift; priorities are renumbered 1 to n. $ deck prefs school move 3 1",
      exits: [.usage("a priority that is not in the list"), .rejected(), .unavailable(), .unauthorized()]))

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The priority of the preference to move.")
  var from: Int

  @Argument(help: "The priority it gets.")
  var to: Int

  func run(_ context: DeckContext) async throws {
    try await PrefsSchool.change(context) { try $0.moving(fromPriority: from, toPriority: to) }
  }
}

struct SchoolRemove: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "remove", _superCommandName: "deck", abstract: "Remove a preference by id or by priority.",
    discussion: HelpText.discussion(
      "An exact id wins; otherwise a whole number is a priority. The rest are renumbered 1 to n.",
      exits: [.usage("no such id or priority"), .rejected(), .unavailable(), .unauthorized()]))

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The preference's id or priority.", valueName: "id|priority"))
  var preference: String

  func run(_ context: DeckContext) async throws {
    let preference = preference
    try await PrefsSchool.change(context) { school in
      if school.preferences.contains(where: { $0.id == preference }) { return try school.removing(id: preference) }
      if let priority = Int(preference) { return try school.removing(priority: priority) }
      return try school.removing(id: preference)
    }
  }
}
