import AuthAPI
import Foundation
import Hummingbird
import Logging
import OpenAPIHummingbird
import SandboxAdminAPI
import ServiceLifecycle

/// The sandbox server: the backend contracts on a local SQLite database.
public enum SandboxServer {
  /// Starts the server in the background in this process (used for the embedded sandbox) and returns once it listens.
  public static func start(_ options: SandboxOptions) async throws -> RunningSandbox {
    let logger = Logger(label: "deck.sandbox") { _ in SwiftLogNoOpLogHandler() }
    let state = try await SandboxState.open(options, logger: logger)
    let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
    let application = try makeApplication(state: state, logger: logger) { port, _ in
      portContinuation.yield(port)
      portContinuation.finish()
    }
    let group = ServiceGroup(configuration: .init(services: [application], logger: logger))
    let task = Task.detached {
      defer { portContinuation.finish() }
      try await run(group, closing: state)
    }
    for await port in ports {
      return RunningSandbox(
        baseURL: baseURL(host: options.host, port: port), adminToken: state.adminToken,
        responseCache: state.responseCache, group: group, task: task)
    }
    if Task.isCancelled {
      await group.triggerGracefulShutdown()
      _ = await task.result
      throw CancellationError()
    }
    // The server stopped before it listened (e.g. the port is taken): report why.
    try await task.value
    throw SandboxServerError.didNotStart
  }

  /// Runs in the foreground until SIGINT/SIGTERM (graceful shutdown), or until `idle` says to
  /// stop, calling onListening once with the base URL (http://host:port), the database's admin
  /// token, the anon key and the address it is bound to (`127.0.0.1` for `--host localhost`).
  public static func serve(
    _ options: SandboxOptions, idle: IdleExit? = nil,
    onListening: @escaping @Sendable (URL, String, String, String?) -> Void
  )
    async throws
  {
    var logger = Logger(label: "deck.sandbox") { StreamLogHandler.standardError(label: $0) }
    logger.logLevel = .info
    let state = try await SandboxState.open(options, logger: logger)
    let host = options.host
    let application = try makeApplication(state: state, logger: logger) { port, bound in
      onListening(baseURL(host: host, port: port), state.adminToken, state.anonKey, bound)
    }
    let group = ServiceGroup(
      configuration: .init(services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
    let idleLogger = logger
    let watcher = idle.map { idle in
      Task {
        while !Task.isCancelled {
          try? await Task.sleep(for: .seconds(1))
          if let reason = idle.reasonToStop(state.activity) {
            idleLogger.info("deck sandbox stopping: \(reason)")
            await group.triggerGracefulShutdown()
            return
          }
        }
      }
    }
    defer { watcher?.cancel() }
    try await run(group, closing: state)
  }

  /// Runs the server until it stops, then closes its database, also when it stops on an error.
  private static func run(_ group: ServiceGroup, closing state: SandboxState) async throws {
    do {
      try await group.run()
    } catch {
      await state.close()
      throw error
    }
    await state.close()
  }

  /// The anon key of the sandbox database at `options.databasePath` (the `apikey` of the
  /// Supabase clients), opening, migrating and seeding the database if needed.
  public static func anonKey(_ options: SandboxOptions) async throws -> String {
    let state = try await SandboxState.open(options)
    await state.close()
    return state.anonKey
  }

  /// The router with every API registered, and its middleware.
  static func makeRouter(state: SandboxState) throws -> SandboxRouter {
    let router = SandboxRouter(context: SandboxRequestContext.self)
    let routes = RouteTable()
    // Outermost first: the request log, activity (for the idle exit), CORS (preflights answered,
    // allowed origins named on every answer, errors included), the body limit, 405s, dot segments
    // refused, the request head for handlers, the QA run's scope (Deck-QA-Run). Then, by
    // route: the operator routes get the token and origin checks; the public ones get the
    // fault rules, the delay, then the cache of the read-only routes features allow
    // (SandboxRoutes.cacheResponses). The guard is chosen by the
    // route the router matched, so no spelling of a path (`//__sandbox/v1/reset`) reaches an
    // operator route without it.
    router.middlewares.add(RequestLogMiddleware(state: state))
    router.middlewares.add(ActivityMiddleware(activity: state.activity))
    router.middlewares.add(CORSMiddleware(origins: state.options.corsOrigins))
    router.middlewares.add(BodyLimitMiddleware(limits: state.bodyLimits))
    router.middlewares.add(MethodNotAllowedMiddleware(table: routes))
    router.middlewares.add(DotSegmentMiddleware())
    router.middlewares.add(RequestHeadMiddleware())
    router.middlewares.add(QARunScopeMiddleware(runs: state.qaRuns))
    let operatorRoutes = router.group().add(middleware: OperatorGuardMiddleware(state: state))
    let publicRoutes = router.group()
      .add(middleware: FaultMiddleware(state: state))
      .add(middleware: DelayMiddleware(state: state))
      .add(middleware: ResponseCacheMiddleware(cache: state.responseCache))
    let transport = RecordingTransport(
      publicRoutes: publicRoutes, operatorRoutes: operatorRoutes, openOperatorRoutes: router.group(), table: routes)
    try AuthHandlers(state: state).registerHandlers(
      on: transport, serverURL: URL(string: "/auth/v1")!, configuration: SandboxRoutes.configuration,
      middlewares: AuthHandlers.middlewares(state: state))
    try AdminHandlers(state: state).registerHandlers(
      on: transport, serverURL: URL(string: "/__sandbox/v1")!, configuration: SandboxRoutes.configuration,
      middlewares: [
        ErrorResponseMiddleware(requestError: AdminHandlers.requestError),
        RejectNullsMiddleware(
          operations: [
            "seed": ["synthetic"], "setDelay": ["milliseconds"], "clearFaults": ["id"],
            "addFault": [
              "method", "path", "action", "field", "value", "status", "retryAfter", "latencyMs", "times", "probability",
            ],
          ],
          error: { AdminHandlers.requestError(operationID: $0, request: $1, status: .badRequest) }),
      ])
    // Each feature's contract routes, operator endpoints and pages.
    let features = SandboxRoutes(transport: transport, state: state)
    for feature in state.options.features { try feature.registerRoutes(on: features) }
    return router
  }

  private static func makeApplication(
    state: SandboxState, logger: Logger, onListening: @escaping @Sendable (Int, String?) -> Void
  ) throws -> some ApplicationProtocol {
    // Hummingbird calls onServerRunning once, when the listening socket is bound.
    Application(
      router: try makeRouter(state: state),
      server: .http1(configuration: .init(idleTimeout: ConnectionLimits.idleTimeout(state.options.connectionTimeout))),
      configuration: .init(address: .hostname(state.options.host, port: state.options.port), serverName: nil),
      onServerRunning: { channel in
        // A closed channel has no address: then the port asked for, unless that was 0 (any),
        // which names no port at all.
        guard let port = channel.localAddress?.port ?? (state.options.port == 0 ? nil : state.options.port) else {
          logger.error("deck sandbox stopped before it could say which port it listens on.")
          return
        }
        state.didStartListening(port: port)
        onListening(port, channel.localAddress?.ipAddress)
        state.activity.startServing()
      },
      eventLoopGroupProvider: state.options.eventLoopGroup.map { .shared($0) } ?? .singleton,
      logger: logger)
  }

  static func baseURL(host: String, port: Int) -> URL {
    let hostPart = host.contains(":") ? "[\(host)]" : host
    return URL(string: "http://\(hostPart):\(port)")!
  }
}

/// A sandbox server running in the background of this process.
public final class RunningSandbox: Sendable {
  /// Where it listens: http://host:port.
  public let baseURL: URL
  /// The operator endpoints' token, read from the database.
  public let adminToken: String
  let responseCache: ResponseCache
  private let group: ServiceGroup
  private let task: Task<Void, any Error>

  init(
    baseURL: URL, adminToken: String, responseCache: ResponseCache, group: ServiceGroup, task: Task<Void, any Error>
  ) {
    self.baseURL = baseURL
    self.adminToken = adminToken
    self.responseCache = responseCache
    self.group = group
    self.task = task
  }

  /// Shuts the server down gracefully (in-flight requests finish, delayed ones are cut short)
  /// and returns when it has stopped. Cancels it if that takes more than two seconds.
  public func stop() async {
    await group.triggerGracefulShutdown()
    let task = self.task
    let watchdog = Task {
      try await Task.sleep(for: .seconds(2))
      task.cancel()
    }
    _ = await task.result
    watchdog.cancel()
  }
}

enum SandboxServerError: Error, CustomStringConvertible {
  case didNotStart

  var description: String { "the sandbox server stopped before it started listening" }
}
