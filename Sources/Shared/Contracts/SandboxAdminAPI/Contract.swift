/// The `SandboxAdminAPI` contract: its types, client and server stubs are in `Generated/` beside this
/// file, written from `openapi.yaml` by swift-openapi-generator through scripts/generate-contracts
/// and committed (CI's `scripts/generate-contracts --check` fails when they are stale). Edit the
/// YAML and run the script; never edit the generated code.
public enum SandboxAdminContract {
  /// The document this module is generated from, relative to the package root.
  public static let document = "Sources/Shared/Contracts/SandboxAdminAPI/openapi.yaml"
}
