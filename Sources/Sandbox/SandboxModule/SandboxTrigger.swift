import ArgumentParser

struct SandboxTrigger: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "trigger", abstract: "Make things happen that a real backend gets from outside (webhooks).",
    subcommands: [TriggerSubscription.self, TriggerInviteExpiry.self, TriggerPurchase.self])
}
