import ArgumentParser
import DeckCore
import PrefsRules

struct PrefsDashboard: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "dashboard", abstract: "Show or hide dashboard cards and widgets.",
    discussion: HelpText.discussion(
      """
      The dashboard has 8 summary statistics cards (section statsCards) and 17 widgets (section
      widgets); deck prefs get dashboard shows them as a grid. Items are named by their JSON name
      (socialMedia, social-media) or their label ("School Map"). --all SECTION applies the
      command to every item of the section: show --all is the page's Select All, hide --all its
      Deselect All. --none SECTION applies it to none of them, the rest getting the opposite:
      show --none is Deselect All, hide --none is Select All. Sections are applied before the
      names, so show --none widgets quickTasks leaves quickTasks the only widget shown. When a
      section has nothing left shown, the dashboard shows that section's empty state, and deck
      warns.

      $ deck prefs dashboard hide quickTasks socialMedia
      $ deck prefs dashboard show --none widgets recentNotifications upcomingDeadlines
      """,
      exits: [.usage("an unknown name or section (nothing was sent)"), .rejected(), .unavailable(), .unauthorized()]),
    subcommands: [DashboardShow.self, DashboardHide.self])
}

/// What show and hide share: the names, --all and --none per section.
struct DashboardToggles: ParsableArguments {
  @Argument(help: "Cards or widgets.", completion: .list(PrefsCompletion.dashboardNames))
  var names: [String] = []

  @Option(
    name: .customLong("all"),
    help: ArgumentHelp(
      "Every item of a section: show --all is Select All, hide --all Deselect All.", valueName: "section"),
    completion: .list(PrefsCompletion.sections))
  var allSections: [String] = []

  @Option(
    name: .customLong("none"),
    help: ArgumentHelp(
      "No item of a section, the others the opposite: show --none is Deselect All, hide --none Select All.",
      valueName: "section"),
    completion: .list(PrefsCompletion.sections))
  var noneSections: [String] = []

  func validate() throws {
    guard !names.isEmpty || !allSections.isEmpty || !noneSections.isEmpty else {
      throw ValidationError("Name the cards or widgets, or give --all SECTION or --none SECTION.")
    }
  }

  /// `dashboard` with the sections given to --all set as the command says (shown by show, hidden
  /// by hide) and those given to --none the opposite, then `names` shown (or hidden).
  func apply(to dashboard: DashboardWidgetVisibility, showing: Bool) throws(Validation) -> DashboardWidgetVisibility {
    var result = dashboard
    var issues: [ValidationIssue] = []
    for (sections, select) in [(allSections, showing), (noneSections, !showing)] {
      for name in sections {
        do {
          let section = try DashboardSection.named(name)
          result = select ? result.selectingAll(in: section) : result.deselectingAll(in: section)
        } catch {
          issues += error.issues
        }
      }
    }
    // Unknown sections and unknown names are reported together.
    do {
      result = showing ? try result.showing(names) : try result.hiding(names)
    } catch {
      issues += error.issues
    }
    try Validation(issues).check()
    return result
  }

  func run(_ context: DeckContext, showing: Bool) async throws {
    // The names are checked before anything is sent.
    do { _ = try apply(to: DashboardWidgetVisibility(), showing: showing) } catch {
      throw PrefsProblem.invalid(error, "dashboard names")
    }
    let stored = try await PrefsUpdate(context: context, category: .dashboard).run(
      { value in
        guard case .dashboard(let dashboard) = value else { return value }
        return .dashboard(try apply(to: dashboard, showing: showing))
      },
      after: { value in
        guard case .dashboard(let dashboard) = value else { return }
        PrefsText(output: context.output).showDashboard(dashboard)
      })
    if case .dashboard(let dashboard) = stored {
      for warning in dashboard.emptyStateWarnings { context.output.info("warning: \(warning)") }
    }
  }
}

struct DashboardShow: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "show", _superCommandName: "deck",
    abstract: "Show cards or widgets; --all SECTION shows all (Select All), --none SECTION hides all (Deselect All).",
    discussion: HelpText.discussion(
      "See deck prefs dashboard --help.",
      exits: [.usage("an unknown name or section (nothing was sent)"), .rejected(), .unavailable(), .unauthorized()]))

  @OptionGroup var global: GlobalOptions
  @OptionGroup var toggles: DashboardToggles

  func run(_ context: DeckContext) async throws { try await toggles.run(context, showing: true) }
}

struct DashboardHide: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "hide", _superCommandName: "deck",
    abstract: "Hide cards or widgets; --all SECTION hides all (Deselect All), --none SECTION shows all (Select All).",
    discussion: HelpText.discussion(
      "See deck prefs dashboard --help.",
      exits: [.usage("an unknown name or section (nothing was sent)"), .rejected(), .unavailable(), .unauthorized()]))

  @OptionGroup var global: GlobalOptions
  @OptionGroup var toggles: DashboardToggles

  func run(_ context: DeckContext) async throws { try await toggles.run(context, showing: false) }
}
