/// The `HelloAPI` contract: types, client and server stubs are generated at build time from
/// `openapi.yaml` beside this file (a target needs one source file of its own).
public enum HelloContract {
  public static let document = "Sources/Features/Hello/API/HelloAPI/openapi.yaml"
}
