import Hummingbird

/// The sandbox's kiosk routes.
enum KioskRoutes {
  static func register(on router: Router<BasicRequestContext>, state: SandboxState) throws {}
}
