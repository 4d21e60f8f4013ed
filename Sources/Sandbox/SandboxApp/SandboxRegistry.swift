import BrokerageSandbox
import KioskSandbox
import MbtiSandbox
import PrefsSandbox
import SandboxKit
import WorkspaceSandbox

/// Every feature's part of the sandbox server, in the order of deck's registry
/// (Sources/App/Registry.swift). Adding a feature is one line here.
public enum SandboxRegistry {
  package static let features: [any SandboxFeature.Type] = [
    BrokerageSandbox.self,
    WorkspaceSandbox.self,
    KioskSandbox.self,
    MbtiSandbox.self,
    PrefsSandbox.self,
  ]
}
