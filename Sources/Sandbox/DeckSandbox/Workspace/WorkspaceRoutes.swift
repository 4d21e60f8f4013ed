import Hummingbird

/// The sandbox's workspace routes.
enum WorkspaceRoutes {
  static func register(on router: Router<BasicRequestContext>, state: SandboxState) throws {}
}
