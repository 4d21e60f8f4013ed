import SandboxKit

/// Every feature's part of the sandbox server, in the order of deck's registry: Package.swift's
/// `features` list, from which FeatureRegistry is generated at build time.
public enum SandboxRegistry {
  package static let features: [any SandboxFeature.Type] = FeatureRegistry.servers
}
