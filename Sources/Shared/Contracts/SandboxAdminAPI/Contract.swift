/// The `SandboxAdminAPI` contract: the types, client and server stubs are generated at build time from
/// `openapi.yaml` beside this file by swift-openapi-generator. Edit the YAML, never generated code.
public enum SandboxAdminContract {
  /// The document this module is generated from, relative to the package root.
  public static let document = "Sources/Shared/Contracts/SandboxAdminAPI/openapi.yaml"
}
