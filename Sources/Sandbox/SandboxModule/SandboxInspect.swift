import ArgumentParser

struct SandboxInspect: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "inspect", abstract: "Show what the sandbox stores, as an operator would check it.",
    subcommands: [InspectWorkspace.self, InspectSession.self, InspectStore.self, InspectEvents.self])
}
