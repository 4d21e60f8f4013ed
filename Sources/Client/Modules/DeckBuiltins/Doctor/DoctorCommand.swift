import ArgumentParser
import DeckCore
import DeckSupport

/// `deck doctor`: checks deck's setup in the manner of `brew doctor` and `gh auth status`.
struct DoctorCommand: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "doctor", _superCommandName: "deck",
    abstract: "Check deck's files, environment, services, account, clock, completion, plugins and sandbox.",
    discussion: HelpText.discussion(
      """
      One line per check: ✓ fine, ! a warning, ✗ a failure, with what was found and, for anything short of ✓, \
      the command that fixes it. The files are the config directory, config.yml and tokens.json (owner, mode, \
      and whether they parse). Every service URL of the environment is asked at once, each within 2 s; https \
      certificates with fewer than 14 days left are a warning; a server that takes the connection but does not \
      answer in time is slow (a warning), not down. A sandbox is also asked for its delay and fault rules \
      (injected faults). The account's token is checked with the auth \
      service, but no refresh token is spent. The clock is compared with the servers' Date headers (a warning \
      beyond 60 s). Nothing is changed (in the sandbox environment, starting the local sandbox creates its \
      database if there is none, as any command there would).

      --json prints one object per check: name, status (ok, warning or error), detail and fix.
      """,
      exits: [.failure("a check failed (warnings alone exit 0)")]))

  @OptionGroup var global: GlobalOptions

  func run(_ context: DeckContext) async throws {
    let report = await Doctor(context: context).run()
    let output = context.output
    try output.emit(report.checks) {
      output.writeOut(
        report.render(columns: output.columns) { symbol, status in
          output.style(symbol, status == .ok ? .green : status == .warning ? .yellow : .red)
        })
      if report.failures == 0 { output.paragraph(report.summary) }
    }
    if report.failures > 0 {
      throw DeckError.failure(report.summary, hint: "Run the fix commands above, then deck doctor again.")
    }
  }
}
