/// The `HelloAPI` contract: its types, client and server stubs are in `Generated/` beside this
/// file, written from `openapi.yaml` by scripts/generate-contracts and committed (a target needs
/// one source file of its own).
public enum HelloContract {
  public static let document = "Sources/Features/Hello/API/HelloAPI/openapi.yaml"
}
