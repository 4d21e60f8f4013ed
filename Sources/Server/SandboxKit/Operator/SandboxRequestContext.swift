import Hummingbird
import NIOCore

/// The sandbox's request context: Hummingbird's basic one plus the connection, which the
/// fault rules that reset or cut a connection need.
package struct SandboxRequestContext: RequestContext {
  package var coreContext: CoreRequestContextStorage
  let channel: any Channel

  package init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    channel = source.channel
  }
}

package typealias SandboxRouter = Router<SandboxRequestContext>

/// A group of the sandbox's routes that shares middleware (the operator routes, the public ones).
package typealias SandboxRouteGroup = RouterGroup<SandboxRequestContext>
