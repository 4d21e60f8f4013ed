import Hummingbird
import NIOCore

/// The sandbox's request context: Hummingbird's basic one plus the connection, which the
/// fault rules that reset or cut a connection need.
struct SandboxRequestContext: RequestContext {
  var coreContext: CoreRequestContextStorage
  let channel: any Channel

  init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    channel = source.channel
  }
}

typealias SandboxRouter = Router<SandboxRequestContext>
