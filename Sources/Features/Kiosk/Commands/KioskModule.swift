import ArgumentParser
import DeckConfig
import DeckCore

/// `deck kiosk`: the in-store review kiosk (kiosk-review-flow.md).
public enum KioskModule: DeckModule {
  public static let name = "kiosk"
  public static let summary = "Pair and run the in-store review kiosk."
  public static let services: [Service] = [.kiosk]
  public static var commands: [any ParsableCommand.Type] { [KioskCommand.self] }
  public static var sandboxCommands: SandboxCommands {
    SandboxCommands(
      inspect: [InspectSession.self, InspectStore.self], trigger: [TriggerPurchase.self, TriggerStore.self])
  }

  /// What a one-shot kiosk command (and `run`, which adds an interruption) can exit with.
  static let commandExits: [ExitDoc] = [
    .failure("failure, or an unknown store or session"), .usage(), .rejected("rejected by the backend"),
    .unavailable("backend unreachable"),
  ]
}

struct KioskCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "kiosk", abstract: KioskModule.summary,
    discussion: HelpText.discussion(
      """
      The kiosk goes pairing → idle → rating → consent → handoff → thank-you → idle, as the iPad
      app does. Step a session through by hand with the one-shot commands (the kiosk's state is
      kept per environment between them), or run the whole kiosk in the terminal with
      `deck kiosk run` (scripted with --sessions, --rating and --approve or --decline).

      A command that does not fit the kiosk's current screen says which screen it is on and
      what it accepts, sends nothing and exits 64.

      With --json every command prints the kiosk's status: the store, the screen, the current
      session ("session", null once the kiosk is back on idle). The step commands (next, rate,
      approve, decline, done, cancel) add "acted": the session they acted on and its status
      after the step, e.g. {"publicId": "sess_…", "status": "POSTED_INTENT"} after done.
      pair and unpair add "changed": false when there was nothing to do.
      """,
      exits: [
        .failure("failure, or an unknown store or session"),
        .usage("usage error, or a command that does not fit the screen (nothing was sent)"),
        .rejected("rejected by the backend (a rating outside 1-5, a call that does not fit the session's status)"),
        .unavailable("backend unreachable"), .interrupted(),
      ]),
    subcommands: [
      KioskPair.self, KioskStatus.self, KioskNext.self, KioskRate.self, KioskApprove.self, KioskDecline.self,
      KioskDone.self, KioskCancel.self, KioskUnpair.self, KioskRun.self,
    ])
}

extension Service {
  /// The in-store review kiosk's backend.
  static let kiosk = Service("kiosk", summary: "review kiosk")
}
