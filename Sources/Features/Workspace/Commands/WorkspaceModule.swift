import ArgumentParser
import BrokerageRules
import DeckConfig
import DeckCore
import WorkspaceRules

/// `deck workspace`: the workspace access gate, onboarding (with brokerage), invites and
/// checkout (workspace-onboarding.md, brokerage-onboarding.md).
public enum WorkspaceModule: DeckModule {
  public static let name = "workspace"
  public static let summary = "Access, onboarding, invites and checkout of FLYR workspaces."
  public static let services: [Service] = [.flyr]
  public static var commands: [any ParsableCommand.Type] { [WorkspaceCommand.self] }
  public static var sandboxCommands: SandboxCommands {
    SandboxCommands(
      inspect: [InspectWorkspace.self], trigger: [TriggerSubscription.self, TriggerInviteExpiry.self],
      other: [SandboxOutbox.self])
  }
}

struct WorkspaceCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "workspace", abstract: WorkspaceModule.summary,
    discussion: HelpText.discussion(
      """
      The flow after signing in: `route` says where the user goes (login, join, onboarding,
      subscribe, subscribe (member-inactive) or dashboard); `onboard` completes onboarding;
      `subscribe` opens a checkout; `invite validate|accept` follows a join link.
      """,
      exits: [
        .failure("not found or timed out"), .usage(), .rejected("rejected by the server (400)"), .unavailable(),
        .unauthorized(), .interrupted("interrupted (subscribe --wait)"),
      ]),
    subcommands: [
      WorkspaceAccess.self, WorkspaceRoute.self, WorkspaceOnboard.self, WorkspaceInvite.self, WorkspaceSubscribe.self,
    ])
}

// Enumerated values complete in the REPL and the shell scripts.

extension Industry: ExpressibleByArgument {
  /// Matched without regard to case, spaces, `-` or `_` ("real estate", "REAL-ESTATE").
  public init?(argument: String) { self.init(matching: argument) }
}

extension UseCase: ExpressibleByArgument {
  public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}

extension Plan: ExpressibleByArgument {
  public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}

extension Currency: ExpressibleByArgument {
  public init?(argument: String) { self.init(matching: argument) }
}

extension Service {
  /// FLYR-PRO, which serves workspaces (brokerage declares it too, for the directory).
  static let flyr = Service(
    "flyr", summary: "workspace, onboarding, invites, billing, access",
    defaultURLs: ["production": "https://flyrpro.app"])
}
