import ArgumentParser
import DeckConfig
import DeckCore

/// `deck workspace`.
public enum WorkspaceModule: DeckModule {
  public static let name = "workspace"
  public static let summary = "Access, onboarding, invites and checkout of FLYR workspaces."
  public static let services: [Service] = [.flyr]
  public static var commands: [any ParsableCommand.Type] { [WorkspaceCommand.self] }
}

struct WorkspaceCommand: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "workspace", abstract: WorkspaceModule.summary)
}
