import ArgumentParser
import DeckAuth
import DeckConfig
import DeckCore
import DeckREPL
import DeckSupport
import FoundationEssentials
import SandboxAdminAPI
import SandboxLaunch

/// Gathers what each check needs and runs them in order: files, environment, services, a
/// sandbox's injected faults (its delay and fault rules) and account (the network checks at
/// once, each within `bound`), clock, completion, plugins and the local sandbox. Nothing is
/// written (but the local sandbox, started to be asked in the `sandbox` environment, creates
/// its database if there is none), and no refresh token is spent.
struct Doctor {
  /// How long one service gets to connect and answer.
  static let bound: Duration = .seconds(2)

  let context: DeckContext

  func run() async -> DoctorReport {
    var checks = files()
    let resolved = Result { try context.environment() }.mapError(ErrorPresenter.deckError(for:))
    checks.append(EnvironmentCheck.evaluate(resolved))
    if case .success(let environment) = resolved {
      async let services = services(environment)
      async let account = account(environment)
      let (targets, probes) = await services
      // A sandbox is asked what it does on purpose once its URLs are known (the local sandbox
      // is running by then): its delay explains a slow service.
      let injected = environment.definition.isSandbox ? await injectedFaults() : nil
      let delay = (try? injected?.get())?.delayMilliseconds
      checks += targets.map { service, target in
        ServiceChecks.evaluate(
          service: service, environment: environment, target: target, bound: Self.bound, sandboxDelay: delay)
      }
      if let injected { checks.append(InjectedFaultsCheck.evaluate(injected)) }
      let (token, verdict) = await account
      checks.append(
        AccountCheck.evaluate(environment: environment.name, token: token, verdict: verdict, sandboxDelay: delay))
      checks.append(ClockCheck.evaluate(ClockCheck.samples(probes)))
    } else {
      for name in ["services", "account", "clock"] {
        checks.append(.warning(name, "not checked: there is no environment", fix: "fix the environment (above) first"))
      }
    }
    checks.append(completion())
    checks.append(plugins())
    checks += sandbox()
    return DoctorReport(checks: checks)
  }

  private func problem(_ body: () throws -> Void) -> DeckError? {
    do {
      try body()
      return nil
    } catch {
      return ErrorPresenter.deckError(for: error)
    }
  }

  // MARK: Files

  private func files() -> [DoctorCheck] {
    let paths = context.paths
    let user = FileFacts.currentUser
    let tokenStore = context.tokenStore
    return [
      FileChecks.configDirectory(
        path: paths.configDirectory, facts: .read(paths.configDirectory),
        problem: problem { try SecureDirectory.check(paths.configDirectory) }),
      FileChecks.configFile(
        path: paths.configFile, facts: .read(paths.configFile), user: user,
        parsed: Result { try context.configStore.load() }.mapError(ErrorPresenter.deckError(for:))),
      FileChecks.tokenFile(
        path: paths.tokenFile, facts: .read(paths.tokenFile), user: user,
        readProblem: problem { _ = try tokenStore.accounts(in: "") }),
    ]
  }

  // MARK: Services

  /// What to check for each service, in order, and the distinct probes (for the clock).
  private func services(_ environment: ResolvedEnvironment) async -> (
    [(Service, ServiceChecks.Target)], [ServiceProbe]
  ) {
    var urls: [Service: URL] = [:]
    var targets: [Service: ServiceChecks.Target] = [:]
    for service in Service.allCases {
      do {
        _ = try environment.endpoint(for: service)
      } catch {
        targets[service] = .noURL(ErrorPresenter.deckError(for: error))
        continue
      }
      do {
        urls[service] = try await context.baseURL(for: service)
      } catch {
        targets[service] = .notStarted(ErrorPresenter.deckError(for: error))
      }
    }
    // Each distinct URL is asked once, all at once.
    let session = context.session
    let transport = session.transport(timeout: Self.bound + .seconds(1))
    let providers = session.providers
    let distinct = Array(Set(urls.values))
    let probes = await withTaskGroup(of: (URL, ServiceProbe).self) { group in
      for url in distinct {
        group.addTask {
          (url, await ServiceChecks.probe(url, transport: transport, providers: providers, bound: Self.bound))
        }
      }
      var found: [URL: ServiceProbe] = [:]
      for await (url, probe) in group { found[url] = probe }
      return found
    }
    for (service, url) in urls {
      if let probe = probes[url] { targets[service] = .probed(probe) }
    }
    let ordered = Service.allCases.compactMap { service in targets[service].map { (service, $0) } }
    return (ordered, distinct.compactMap { probes[$0] }.sorted { $0.url < $1.url })
  }

  /// The sandbox's delay and fault rules in force, on its operator endpoints (which neither
  /// slows), within `bound`: those that act on this deck's requests (the global ones and its
  /// own QA run scope's, not those of other runs, which act on their own requests only).
  private func injectedFaults() async -> Result<InjectedFaults, DeckError> {
    let context = context
    let asked = await Bounded.run(within: Self.bound) { () -> Result<InjectedFaults, DeckError> in
      do {
        let client = try await SandboxOperator.client(context, path: "/__sandbox/v1") {
          SandboxAdminAPI.Client(serverURL: $0, transport: $1, middlewares: $2)
        }
        async let delay = client.getDelay().ok.body.json
        async let rules = client.listFaults().ok.body.json
        let own = context.session.processEnvironment[QARunScope.variable]
        let global = try await rules.filter { $0.scope == nil || $0.scope == own }
        return .success(InjectedFaults(delayMilliseconds: try await delay.milliseconds, rules: global))
      } catch {
        return .failure(ErrorPresenter.deckError(for: error))
      }
    }
    return asked
      ?? .failure(DeckError(.unavailable(status: nil), "no answer within \(Self.bound.components.seconds) s"))
  }

  // MARK: Account

  /// The account's token, and what the auth service says of it (evaluated once a sandbox's
  /// delay is known: it explains a slow answer).
  private func account(_ environment: ResolvedEnvironment) async -> (AccountCheck.Token, AccountCheck.Verdict) {
    let token: AccountCheck.Token
    var use: AuthUse?
    if let value = context.session.processEnvironment["DECK_TOKEN"], !value.isEmpty {
      let claims = JWTClaims(token: value)
      token = .variable(expiresAt: claims?.expiresAt, email: claims?.email)
      if claims?.expiresAt.map({ $0 > Date() }) ?? true { use = .bearer(value) }
    } else {
      do {
        if let stored = try context.tokenStore.accounts(in: environment.name).activeSession {
          token = .stored(stored)
          // Only a live access token is shown to the server: an expired one would need the
          // single-use refresh token, which belongs to the next real command.
          if !stored.isExpired(leeway: 0) { use = .stored(stored) }
        } else {
          token = .none
        }
      } catch {
        token = .unreadable(ErrorPresenter.deckError(for: error))
      }
    }
    var verdict = AccountCheck.Verdict.notAsked
    if let use {
      verdict =
        await Bounded.run(within: Self.bound) { await ask(use) }
        ?? .unreachable(
          DeckError(.unavailable(status: nil), "no answer within \(Self.bound.components.seconds) s"))
    }
    return (token, verdict)
  }

  /// `GET /auth/v1/user` with the token (never refreshed: `.stored` and `.bearer` send it as is).
  private func ask(_ use: AuthUse) async -> AccountCheck.Verdict {
    var options = context.options
    options.timeout = Double(Self.bound.components.seconds + 1)
    let probe = DeckContext(session: context.session, options: options)
    do {
      let user = try await probe.authClient(auth: use).getUser().ok.body.json
      return .accepted(email: user.email)
    } catch {
      let failure = ErrorPresenter.deckError(for: error)
      if case .unauthorized = failure.kind { return .refused(failure) }
      return .unreachable(failure)
    }
  }

  // MARK: Completion, plugins, sandbox

  private func completion() -> DoctorCheck {
    let environment = context.session.processEnvironment
    let shell = environment["SHELL"].map { PathText.lastComponent($0) } ?? ""
    let kinds: [String: CompletionShell] = ["bash": .bash, "zsh": .zsh, "fish": .fish]
    return CompletionCheck.check(
      shellPath: environment["SHELL"], environment: environment, binaries: Self.binaries(environment),
      expected: kinds[shell].flatMap { DeckShell.completionScript(for: $0) },
      read: { FileManager.default.contents(atPath: $0).map { String(decoding: $0, as: UTF8.self) } })
  }

  /// This deck as the shell finds it (argv[0], or its PATH entry) and as the kernel runs it.
  private static func binaries(_ environment: [String: String]) -> [String?] {
    var found: [String?] = []
    if let invoked = CommandLine.arguments.first {
      if invoked.contains("/") {
        found.append(invoked.hasPrefix("/") ? invoked : FileManager.default.currentDirectoryPath + "/" + invoked)
      } else {
        found.append(
          (environment["PATH"] ?? "").split(separator: ":").map { "\($0)/\(invoked)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
          })
      }
    }
    found.append(LocalProcess.ownExecutable())
    return found.isEmpty ? [nil] : found
  }

  private func plugins() -> DoctorCheck {
    let commands = DeckShell.commandNames ?? Set(context.session.registry.commands.map { $0._commandName })
    return PluginCheck.evaluate(
      executables: Plugins.executables(path: context.session.processEnvironment["PATH"]), commands: commands,
      replBuiltins: Set(REPL.builtinNames))
  }

  private func sandbox() -> [DoctorCheck] {
    let paths = context.paths
    let local = context.session.localSandbox
    let program = Result { try local.program() }.mapError(ErrorPresenter.deckError(for:))
    let record = (try? local.runtimeDirectory()).flatMap { LocalSandboxRecord.read(local.recordPath(in: $0)) }
    return [
      SandboxCheck.evaluate(
        path: paths.sandboxDatabase, directoryProblem: problem { try SecureDirectory.check(paths.dataDirectory) },
        info: program.flatMap { program in
          Result { try SandboxDatabaseInfo.read(path: paths.sandboxDatabase, program: program) }
            .mapError(ErrorPresenter.deckError(for:))
        }),
      LocalSandboxCheck.evaluate(
        record: record, alive: record?.serverRuns ?? false,
        build: (try? program.get()).flatMap(ProgramIdentity.of), log: local.logFile),
    ]
  }

}
