import ArgumentParser
import DeckConfig
import DeckCore
import DeckSupport
import FoundationEssentials
import PrefsRules

/// `deck prefs`: the five preference pages of the recruiting app (preferences.md), on the
/// recruiting service's V2 category API, plus the geocoder the home location uses.
public enum PrefsModule: DeckModule {
  public static let name = "prefs"
  public static let summary =
    "Read and change the recruiting preferences: player, school, notifications, dashboard, location."
  public static let services: [Service] = [.recruiting, .geocoder]
  public static var commands: [any ParsableCommand.Type] { [PrefsCommand.self] }
  public static var sandboxCommands: SandboxCommands { SandboxCommands(inspect: [InspectPrefs.self]) }
}

struct PrefsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "prefs", abstract: PrefsModule.summary,
    discussion: HelpText.discussion(
      """
      Categories: player (the athlete's profile), school (the ranked school criteria),
      notifications, dashboard (which cards and widgets show) and location (the home address and
      its coordinates). Every command needs a signed-in user (deck auth login). Values are typed
      and validated before anything is sent; every change is recorded in the category's history.
      Parents may read the player details of their athlete but not change them.
      """,
      exits: [
        .failure(), .usage("bad input: an unknown key or a value out of range (nothing was sent)"),
        .rejected("the service refused the data"), .unavailable("the service could not be reached"),
        .unauthorized("not signed in, or a parent changing the player details"),
      ]),
    subcommands: [
      PrefsGet.self, PrefsSet.self, PrefsEdit.self, PrefsReset.self, PrefsDelete.self, PrefsHistory.self,
      PrefsSchool.self, PrefsDashboard.self, PrefsLocation.self, PrefsExportCommand.self, PrefsImportCommand.self,
      PrefsPhoto.self,
    ])
}

extension PrefsCategory: ExpressibleByArgument {}

/// The category argument every command takes; its values complete.
struct CategoryOption: ParsableArguments {
  @Argument(
    help: ArgumentHelp("The category: player, school, notifications, dashboard or location.", valueName: "category"))
  var category: PrefsCategory
}

/// Problems found before anything was sent: exit 64, one line per problem, each naming its field;
/// every problem at once, at most `Validation.shownLimit` of them and then how many more.
enum PrefsProblem {
  static func invalid(_ validation: Validation, _ what: String, hint: String? = nil) -> DeckError {
    DeckError.usage("Invalid \(what), nothing was sent:\n" + lines(validation.listed()), hint: hint)
  }

  /// `messages` one per line, indented.
  static func lines(_ messages: [String]) -> String { messages.map { "  " + $0 }.joined(separator: "\n") }
}

/// What a write printed with --json: the category, what changed, and the value now stored.
struct PrefsWriteView: Encodable {
  var category: PrefsCategory
  var changes: [FieldChange]
  var data: PrefsValue
  /// A player save triggers a fit score recalculation on the service.
  var fitScoreRecalculated: Bool
  /// Why the changes are not in the history although the write succeeded.
  @ExplicitNull var historyProblem: String?
}

/// The read-change-write cycle of the commands that change one category: refuse a parent's
/// change to the player details before sending anything, fetch the current value, apply the
/// change, normalise and validate it (exit 64 naming the fields), send it only if something
/// changed, record the changes in the history, and print them.
struct PrefsUpdate {
  let context: DeckContext
  let category: PrefsCategory

  var service: PrefsService { PrefsService(context: context) }

  /// Runs the cycle; `change` gets the current value and returns the new one (or throws a
  /// `Validation`, which becomes exit 64). `before` sees what was fetched first, and may throw
  /// (a confirmation). `after` prints more for a person once it is saved.
  /// Returns the value stored now.
  @discardableResult
  func run(
    _ change: (PrefsValue) throws -> PrefsValue, before: (FetchedPrefs) async throws -> Void = { _ in },
    after: (PrefsValue) -> Void = { _ in }
  ) async throws -> PrefsValue {
    try await service.requireWritable(category)
    let fetched = try await service.fetch(category)
    if fetched.readOnly { throw PrefsService.readOnly(email: nil) }
    try await before(fetched)
    for warning in fetched.warnings { context.output.info("warning: \(warning)") }
    let updated: PrefsValue
    do {
      updated = try change(fetched.value).validated()
    } catch let validation as Validation {
      throw PrefsProblem.invalid(validation, category.noun)
    }
    return try await save(updated, over: fetched, after: after)
  }

  /// Saves `value` (validated, then reconciled with what was fetched: see `PrefsValue.reconciled`)
  /// over what was fetched, unless nothing changed, and prints the result. `reconciling: false`
  /// when the value is already what follows (coordinates just looked up for the new address).
  /// Returns the value stored now.
  @discardableResult
  func save(
    _ value: PrefsValue, over fetched: FetchedPrefs, reconciling: Bool = true, after: (PrefsValue) -> Void = { _ in }
  ) async throws -> PrefsValue {
    let (updated, notes) = reconciling ? value.reconciled(with: fetched.value) : (value, [])
    for note in notes { context.output.info("note: \(note)") }
    let changes = fetched.value.changes(to: updated)
    // A stored document that did not validate is replaced even when the new value equals the defaults.
    guard !changes.isEmpty || !fetched.warnings.isEmpty else {
      let view = PrefsWriteView(
        category: category, changes: [], data: fetched.value, fitScoreRecalculated: false, historyProblem: nil)
      try context.output.emit(view) {
        context.output.info("Nothing changed; nothing was sent.")
        after(fetched.value)
      }
      return fetched.value
    }
    let saved = try await service.save(Self.stamped(updated), over: fetched.value)
    let view = PrefsWriteView(
      category: category, changes: saved.changes, data: saved.value,
      fitScoreRecalculated: saved.fitScoreRecalculated, historyProblem: saved.historyProblem)
    try context.output.emit(view) {
      context.output.info("Saved the \(category.noun)\(saved.changes.isEmpty ? "." : ":")")
      PrefsText(output: context.output).showChanges(saved.changes)
      after(saved.value)
      if saved.fitScoreRecalculated { context.output.info("The fit scores are being recalculated.") }
    }
    if let problem = saved.historyProblem {
      context.output.info("warning: the change is saved, but its history entry was not recorded: \(problem)")
    }
    return saved.value
  }

  /// School preferences carry the time of the client's last change.
  static func stamped(_ value: PrefsValue) -> PrefsValue {
    guard case .school(var school) = value else { return value }
    school.lastUpdated = Date().formatted(.iso8601)
    return .school(school)
  }
}

extension Service {
  /// Recruiting, which keeps the preferences.
  static let recruiting = Service("recruiting", summary: "preferences")
  /// The US Census Bureau's one-line-address geocoder (home location coordinates): public, no
  /// key, the same in every real environment. deck never sends it a token.
  static let geocoder = Service(
    "geocoder", summary: "address geocoding (US Census Bureau geocoder)",
    defaultURLs: Dictionary(
      uniqueKeysWithValues: BuiltinEnvironments.remoteNames.map {
        ($0, "https://geocoding.geo.census.gov")
      }), sendsToken: false)
}
