import HelloAPI
import HelloRules
import SandboxKit

/// Hello's part of the sandbox: GET /api/hello, from the HelloAPI contract.
package enum HelloServer: SandboxFeature {
  package static let name = "hello"

  package static func registerRoutes(on routes: SandboxRoutes) throws {
    try HelloHandlers().registerHandlers(
      on: routes.transport, serverURL: SandboxRoutes.root, configuration: SandboxRoutes.configuration)
  }
}

struct HelloHandlers: APIProtocol {
  func greet(_ input: Operations.greet.Input) async throws -> Operations.greet.Output {
    guard let name = HelloRules.name(input.query.name) else {
      return .badRequest(.init(body: .json(.init(message: "name is empty"))))
    }
    return .ok(.init(body: .json(.init(greeting: HelloRules.greeting(for: name)))))
  }
}
