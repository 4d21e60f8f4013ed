import DeckConfig
import DeckCore
import DeckSupport
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One `deck qa run`: which scenarios run and which are skipped, the reachability check before
/// any of them, and the scheduling (`--jobs` at once; `exclusive` ones alone, after the rest).
struct QARun: Sendable {
  var scenarios: [Scenario]
  var definition: EnvironmentDefinition
  var jobs: Int
  var failFast: Bool
  var allowWrites: Bool

  /// Why a scenario is not run here, if it is not.
  func skipReason(_ scenario: Scenario) -> String? {
    RunBlocker.of(scenario, in: definition, allowWrites: allowWrites)?.reason(definition.name)
  }

  /// Runs every scenario; `progress` hears of each as it ends.
  func run(
    _ runner: ScenarioRunner, progress: @escaping @Sendable (ScenarioResult) -> Void
  ) async -> [ScenarioResult] {
    let state = RunState(failFast: failFast, progress: progress)
    var parallel: [(Int, Scenario)] = []
    var alone: [(Int, Scenario)] = []
    for (index, scenario) in scenarios.enumerated() {
      if let reason = skipReason(scenario) {
        state.record(index, ScenarioResult(scenario: scenario, status: .skipped(reason: reason), steps: [], seconds: 0))
      } else if scenario.tags.contains(.exclusive) {
        alone.append((index, scenario))
      } else {
        parallel.append((index, scenario))
      }
    }
    await withTaskGroup(of: Void.self) { group in
      var running = 0
      for (index, scenario) in parallel {
        if running >= max(1, jobs) {
          await group.next()
          running -= 1
        }
        group.addTask { await state.run(scenario, index: index, runner: runner) }
        running += 1
      }
      await group.waitForAll()
    }
    for (index, scenario) in alone { await state.run(scenario, index: index, runner: runner) }
    let all = state.results.withLock { $0 }
    return scenarios.indices.compactMap { all[$0] }
  }
}

/// What keeps a scenario from running in an environment: the one rule by which `qa run` skips
/// scenarios and `qa coverage --env` counts what runs where.
enum RunBlocker: String, Sendable, CaseIterable {
  /// Tagged `sandbox`, and the environment is not a sandbox: the scenario needs the sandbox's
  /// operator endpoints.
  case sandbox
  /// Tagged `writes`, and the environment is production (without `--allow-writes`).
  case writes

  /// What keeps `scenario` from running in the environment `definition`, if anything (the
  /// sandbox first, where both do).
  static func of(_ scenario: Scenario, in definition: EnvironmentDefinition, allowWrites: Bool) -> RunBlocker? {
    if scenario.tags.contains(.sandbox) && !definition.isSandbox { return .sandbox }
    if scenario.tags.contains(.writes) && definition.isProduction && !allowWrites { return .writes }
    return nil
  }

  /// Why a scenario is skipped in the environment `name`, as `qa run` reports it.
  func reason(_ name: String) -> String {
    switch self {
    case .sandbox: "needs the sandbox's operator endpoints; \(name) is not a sandbox"
    case .writes: "writes, and \(name) is production: refused without --allow-writes"
    }
  }
}

/// The results as they come, and whether `--fail-fast` has stopped the run.
final class RunState: Sendable {
  let results = Mutex<[Int: ScenarioResult]>([:])
  let stopped = Atomic<Bool>(false)
  let failFast: Bool
  let progress: @Sendable (ScenarioResult) -> Void

  init(failFast: Bool, progress: @escaping @Sendable (ScenarioResult) -> Void) {
    self.failFast = failFast
    self.progress = progress
  }

  func record(_ index: Int, _ result: ScenarioResult) {
    results.withLock { $0[index] = result }
    if failFast && (result.status == .failed || result.status == .error) { stopped.store(true, ordering: .relaxed) }
    progress(result)
  }

  func run(_ scenario: Scenario, index: Int, runner: ScenarioRunner) async {
    if stopped.load(ordering: .relaxed) || Task.isCancelled {
      let reason = Task.isCancelled ? "not run: interrupted" : "not run: --fail-fast stopped the run"
      record(index, ScenarioResult(scenario: scenario, status: .skipped(reason: reason), steps: [], seconds: 0))
      return
    }
    record(index, await runner.run(scenario, index: index))
  }
}

/// Before anything runs: can deck reach the environment's services that the scenarios use?
enum QAPreflight {
  /// The services the scenarios' modules use (and auth, which every account needs) that
  /// cannot be reached, as "service (URL)". The local sandbox is started if it is where they live.
  static func unreachable(_ scenarios: [Scenario], context: DeckContext) async throws -> [String] {
    let registry = context.session.registry
    let modules = Set(scenarios.map(\.module))
    let environment = try context.environment()
    var problems: [String] = []
    var checked = Set<String>()
    for service in registry.services {
      let users = Set(registry.modules(using: service))
      guard service == .auth || !users.isDisjoint(with: modules) else { continue }
      guard (try? environment.endpoint(for: service)) != nil else { continue }
      let url: URL
      do {
        url = try await context.baseURL(for: service)
      } catch let error as DeckError {
        if case .unavailable = error.kind {
          problems.append("\(service.rawValue): \(error.message)")
          continue
        }
        throw error
      }
      guard let host = url.host else { continue }
      let port = url.port ?? (url.scheme == "https" ? 443 : 80)
      guard checked.insert("\(host):\(port)").inserted else { continue }
      if !(await context.session.providers.acceptsConnection(host: host, port: port, timeout: .seconds(5))) {
        problems.append("\(service.rawValue) (\(url.absoluteString))")
      }
    }
    return problems
  }
}
