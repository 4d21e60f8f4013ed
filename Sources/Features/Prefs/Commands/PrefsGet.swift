import ArgumentParser
import DeckCore
import DeckSupport
import FoundationEssentials
import PrefsRules

struct PrefsGet: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "get", _superCommandName: "deck",
    abstract: "Show a category's stored values, or the defaults when nothing is saved.",
    discussion: HelpText.discussion(
      """
      Says whether the values are stored or the defaults (stderr), then shows them grouped as the
      app's form sections; the dashboard as a two-column grid of ✓ (shown) and ✗ (hidden). A
      nested notification setting whose toggle is off is marked inactive: it is kept but has no
      effect. A stored document that does not validate is shown as the defaults, with a warning
      naming the bad fields.

      Every command that reads or writes a category keeps what the service answered last, per
      environment and account ($XDG_STATE_HOME/deck/prefs, mode 0600). When the service cannot
      be reached, get shows that copy with a warning naming its age and exits 0; --no-cache
      turns that off (exit 69).

      With --json: {category, source (stored, defaults or cache), owner, readOnly, updatedAt,
      cachedAt, warnings, inactive, data}, data being the category's JSON document.
      """,
      exits: [
        .usage(), .unavailable("the service could not be reached and there is no cached copy (or --no-cache)"),
        .unauthorized(),
      ]))

  @OptionGroup var global: GlobalOptions
  @OptionGroup var target: CategoryOption

  @Flag(help: "Neither show nor keep a cached copy: fail when the service cannot be reached.")
  var noCache = false

  struct View: Encodable {
    var category: PrefsCategory
    var source: String
    var owner: String
    var readOnly: Bool
    @ExplicitNull var updatedAt: Date?
    @ExplicitNull var cachedAt: Date?
    var warnings: [String]
    var inactive: [String]
    var data: PrefsValue
    /// The player details' profile photo: set or not, its type and size (player only).
    var photo: PhotoSummary.View?
  }

  func run(_ context: DeckContext) async throws {
    let category = target.category
    let result = try await PrefsReader(context: context, useCache: !noCache).read(category)
    let fetched = result.fetched
    let source = result.cachedAt != nil ? "cache" : fetched.isStored && fetched.warnings.isEmpty ? "stored" : "defaults"
    let view = View(
      category: category, source: source, owner: fetched.owner, readOnly: fetched.readOnly,
      updatedAt: fetched.updatedAt, cachedAt: result.cachedAt, warnings: fetched.warnings,
      inactive: PrefsText.inactive(fetched.value), data: fetched.value,
      photo: category == .player ? await PhotoSummary.look(context, offline: result.cachedAt != nil) : nil)
    try context.output.emit(view) {
      for warning in fetched.warnings { context.output.info("warning: \(warning)") }
      context.output.info(Self.summary(category, fetched, source: source))
      if let photo = view.photo { PhotoSummary.show(photo, on: context.output) }
      PrefsText(output: context.output).show(fetched.value)
    }
    // Warnings go to stderr in every format (`--json` included), as `dashboard hide` says them.
    if case .dashboard(let dashboard) = fetched.value {
      for warning in dashboard.emptyStateWarnings { context.output.info("warning: \(warning)") }
    }
  }

  /// `Stored player details of athlete@sandbox.test, updated 2026-…` or `Nothing stored: the defaults.`
  static func summary(_ category: PrefsCategory, _ fetched: FetchedPrefs, source: String) -> String {
    let owner = TerminalText.sanitize(fetched.owner)
    let readOnly = fetched.readOnly ? " (read-only)" : ""
    if !fetched.isStored { return "\(category.title): nothing stored for \(owner), showing the defaults\(readOnly)." }
    if !fetched.warnings.isEmpty { return "\(category.title): showing the defaults\(readOnly)." }
    let updated = fetched.updatedAt.map { ", updated \($0.formatted(.iso8601))" } ?? ""
    return "\(category.title): stored for \(owner)\(updated)\(source == "cache" ? ", from the cache" : "")\(readOnly)."
  }
}
