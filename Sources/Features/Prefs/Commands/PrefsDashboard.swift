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
      (socialMedia, social-media) or their label ("School Map"). --all SECTION shows every item of
      the section and --none SECTION hides them all (the page's Select All and Deselect All);
      either works with show and hide and is applied before the names, so
      show --none widgets quickTasks leaves quickTasks the only widget shown. With everything
      hidden the dashboard shows its empty state, and deck warns.

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
    name: .customLong("all"), help: ArgumentHelp("Show every item of a section (Select All).", valueName: "section"),
    completion: .list(PrefsCompletion.sections))
  var allSections: [String] = []

  @Option(
    name: .customLong("none"), help: ArgumentHelp("Hide every item of a section (Deselect All).", valueName: "section"),
    completion: .list(PrefsCompletion.sections))
  var noneSections: [String] = []

  func validate() throws {
    guard !names.isEmpty || !allSections.isEmpty || !noneSections.isEmpty else {
      throw ValidationError("Name the cards or widgets, or give --all SECTION or --none SECTION.")
    }
  }

  /// `dashboard` with the sections selected or deselected, then `names` shown (or hidden).
  func apply(to dashboard: DashboardWidgetVisibility, showing: Bool) throws(Validation) -> DashboardWidgetVisibility {
    var result = dashboard
    var issues: [ValidationIssue] = []
    for (sections, select) in [(allSections, true), (noneSections, false)] {
      for name in sections {
        do {
          let section = try DashboardSection.named(name)
          result = select ? result.selectingAll(in: section) : result.deselectingAll(in: section)
        } catch {
          issues += error.issues
        }
      }
    }
    try Validation(issues).check()
    return showing ? try result.showing(names) : try result.hiding(names)
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
    if case .dashboard(let dashboard) = stored, dashboard.isEverythingHidden {
      context.output.info(
        "warning: every card and widget is hidden; the dashboard will show its empty state. Show some with: deck prefs dashboard show --all widgets"
      )
    }
  }
}

struct DashboardShow: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "show", _superCommandName: "deck",
    abstract: "Show cards or widgets (--all/--none SECTION: Select/Deselect All first).",
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
    abstract: "Hide cards or widgets (--all/--none SECTION: Select/Deselect All first).",
    discussion: HelpText.discussion(
      "See deck prefs dashboard --help.",
      exits: [.usage("an unknown name or section (nothing was sent)"), .rejected(), .unavailable(), .unauthorized()]))

  @OptionGroup var global: GlobalOptions
  @OptionGroup var toggles: DashboardToggles

  func run(_ context: DeckContext) async throws { try await toggles.run(context, showing: false) }
}
