/// The `AuthAPI` contract: the types, client and server stubs are generated at build time from
/// `openapi.yaml` beside this file by swift-openapi-generator. Edit the YAML, never generated code.
public enum AuthContract {
  /// The document this module is generated from, relative to the package root.
  public static let document = "Sources/Shared/Contracts/AuthAPI/openapi.yaml"
}
