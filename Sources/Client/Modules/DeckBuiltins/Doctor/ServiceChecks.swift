import DeckConfig
import DeckCore
import DeckNetworking
import DeckSupport
import FoundationEssentials
import HTTPTypes
import OpenAPIRuntime

/// What asking one base URL found: whether it answered, and for https its certificate.
struct ServiceProbe: Sendable, Equatable {
  enum Answer: Sendable, Equatable {
    /// Any HTTP response. `serverDate` is its `Date` header; `localDate` this clock halfway
    /// through the request, to compare with it.
    case answered(status: Int, milliseconds: Int, serverDate: Date?, localDate: Date)
    case failed(DeckError)
    /// It accepted the connection, but did not answer within the bound.
    case slow
    /// Not even a connection within the bound.
    case timedOut
  }

  var url: String
  var answer: Answer
  /// For https: when the server's certificate expires, or why it could not be read.
  var certificate: Result<Date, DeckError>?
}

/// Every service URL of the environment: reachable and answering, certificates not about to
/// expire, and plain http only where deck's URL policy allows it.
enum ServiceChecks {
  /// Certificates with fewer days left than this are a warning.
  static let certificateWarningDays = 14

  /// What there was to check for one service.
  enum Target: Sendable, Equatable {
    /// The environment has no URL for it (commands that use it fail there).
    case noURL(DeckError)
    /// The local sandbox could not start.
    case notStarted(DeckError)
    case probed(ServiceProbe)
  }

  /// One thing found about a service: its status, what it says, and the fix.
  typealias Finding = (status: DoctorCheck.Status, text: String, fix: String?)

  /// `sandboxDelay`: the delay the environment's sandbox puts on every API response, in
  /// milliseconds, when it was asked.
  static func evaluate(
    service: Service, environment: ResolvedEnvironment, target: Target, bound: Duration, sandboxDelay: Int? = nil,
    now: Date = Date()
  ) -> DoctorCheck {
    let name = "service \(service.rawValue)"
    let probe: ServiceProbe
    switch target {
    case .noURL(let error): return .failure(name, error, status: .warning)
    case .notStarted(let error): return .failure(name, error)
    case .probed(let value): probe = value
    }
    let parsed = ParsedURL(probe.url)
    let loopback = parsed.map { URLPolicy.isLoopback($0.host) } ?? false
    var findings = [
      answerFinding(probe, service: service, environment: environment, bound: bound, sandboxDelay: sandboxDelay)
    ]
    if parsed?.scheme == "http" && !loopback {
      // Only reachable with `allow-insecure-http: true` (URLPolicy refuses it otherwise).
      findings.append(
        (
          .warning, "plain http to a host that is not loopback (allow-insecure-http): tokens travel unencrypted",
          "deck env set \(environment.name) \(service.rawValue)=https://\(parsed?.host ?? "HOST")"
        ))
    }
    if let certificate = probe.certificate {
      findings.append(certificateFinding(certificate, host: parsed?.host ?? probe.url, url: probe.url, now: now))
    }
    let worst = findings.map(\.status).max() ?? .ok
    return DoctorCheck(
      name: name, status: worst, detail: findings.map(\.text).joined(separator: "; "),
      fix: findings.first { $0.status == worst }?.fix)
  }

  /// Whether the service answered, how, and how fast.
  static func answerFinding(
    _ probe: ServiceProbe, service: Service, environment: ResolvedEnvironment, bound: Duration, sandboxDelay: Int?
  ) -> Finding {
    let label = environment.definition.isManaged ? "the local sandbox at \(probe.url)" : probe.url
    switch probe.answer {
    case .failed(let error):
      // Only a connection that failed means the server is not there; a sandbox that took the
      // connection and broke the answer is most likely following a fault rule (reset, truncate).
      let fix =
        error.isConnectError || !environment.definition.isSandbox
        ? unreachableFix(probe.url, service, environment) : "see the sandbox's fault rules: deck sandbox fault list"
      return (.error, "\(label): \(error.message)", fix)
    case .slow:
      let seconds = bound.components.seconds
      if let sandboxDelay, sandboxDelay > 0 {
        return (
          .warning,
          "\(label) is slow: no answer within \(seconds) s (the sandbox delays every API response by \(sandboxDelay) ms)",
          "deck sandbox delay 0"
        )
      }
      return (.warning, "\(label) is slow: no answer within \(seconds) s", slowFix(environment))
    case .timedOut:
      return (
        .error, "\(label): no connection within \(bound.components.seconds) s",
        unreachableFix(probe.url, service, environment)
      )
    case .answered(let status, let milliseconds, _, _):
      if status >= 500 {
        return (
          .warning, "\(label) answered HTTP \(status) (a server error) in \(milliseconds) ms",
          "see what it says: curl -si \(probe.url)"
        )
      }
      return (.ok, "\(label) answered HTTP \(status) in \(milliseconds) ms", nil)
    }
  }

  /// The server's certificate: readable, and not expired or about to expire.
  static func certificateFinding(_ certificate: Result<Date, DeckError>, host: String, url: String, now: Date)
    -> Finding
  {
    switch certificate {
    case .failure(let error):
      return (.warning, "cannot read its certificate: \(error.message)", "see what it sends: curl -vI \(url)")
    case .success(let expiry):
      let days = DoctorFormat.days(from: now, to: expiry)
      let date = expiry.formatted(.iso8601.year().month().day())
      if expiry <= now {
        return (
          .error, "its certificate expired on \(date)",
          "renew the certificate of \(host) (deck refuses expired certificates)"
        )
      }
      if days < certificateWarningDays {
        return (
          .warning, "its certificate expires in \(days) day\(days == 1 ? "" : "s") (\(date))",
          "renew the certificate of \(host) before \(date)"
        )
      }
      return (.ok, "certificate valid for \(days) more days", nil)
    }
  }

  /// What to look at when a server took the connection but did not answer in time.
  static func slowFix(_ environment: ResolvedEnvironment) -> String {
    environment.definition.isSandbox
      ? "see the sandbox's delay and fault rules: deck sandbox status"
      : "try again later; deck's commands wait up to --timeout SECONDS (30 by default)"
  }

  /// For a loopback URL, the `deck sandbox serve` that listens there; else where to check the URL.
  static func unreachableFix(_ url: String, _ service: Service, _ environment: ResolvedEnvironment) -> String {
    if environment.definition.isManaged {
      return "deck sandbox stop  (the next command starts it again; its log is in deck's state directory, sandbox.log)"
    }
    if let parsed = ParsedURL(url), URLPolicy.isLoopback(parsed.host) {
      return URLPolicy.serveCommand(scheme: parsed.scheme, port: parsed.port)
    }
    if environment.overriddenServices.contains(service) {
      return "check \(service.overrideVariable), or unset it to use the environment's URL"
    }
    return
      "check the URL (deck env show \(environment.name)), or change it: deck env set \(environment.name) \(service.rawValue)=https://HOST"
  }

  // MARK: Asking

  /// GETs the base URL (no token, no retries), opens a bare connection to tell slow from not
  /// there, and for https reads the certificate; all at once, each within `bound`.
  static func probe(
    _ url: URL, transport: any ClientTransport, providers: any ServiceProviders, bound: Duration
  ) async -> ServiceProbe {
    async let answer = Bounded.run(within: bound) { await ask(url, transport: transport) }
    async let accepted = accepts(url, providers: providers, bound: bound)
    async let certificate = certificate(url, providers: providers, bound: bound)
    let answered = await answer
    let connected = await accepted
    return ServiceProbe(
      url: url.absoluteString, answer: answered ?? (connected ? .slow : .timedOut), certificate: await certificate)
  }

  /// Whether the URL's host and port take a TCP connection within `bound`.
  private static func accepts(_ url: URL, providers: any ServiceProviders, bound: Duration) async -> Bool {
    guard let host = url.host, !host.isEmpty else { return false }
    let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
    return await Bounded.run(within: bound) {
      await providers.acceptsConnection(host: host, port: port, timeout: bound)
    } ?? false
  }

  private static func ask(_ url: URL, transport: any ClientTransport) async -> ServiceProbe.Answer {
    let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: url.path.isEmpty ? "/" : "")
    let sent = Date()
    let started = ContinuousClock.now
    do {
      let (response, body) = try await transport.send(request, body: nil, baseURL: url, operationID: "doctor")
      let elapsed = ContinuousClock.now - started
      if let body { _ = try? await Data(collecting: body, upTo: 1 << 20) }
      let milliseconds = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
      let serverDate = response.headerFields[.date].flatMap(HTTPDate.parse).map(Date.init(timeIntervalSince1970:))
      let halfway = sent.addingTimeInterval(Double(milliseconds) / 2000)
      return .answered(
        status: response.status.code, milliseconds: milliseconds, serverDate: serverDate, localDate: halfway)
    } catch {
      return .failed(ErrorPresenter.deckError(for: error))
    }
  }

  private static func certificate(_ url: URL, providers: any ServiceProviders, bound: Duration) async -> Result<
    Date, DeckError
  >? {
    guard url.scheme?.lowercased() == "https", let host = url.host else { return nil }
    let port = url.port ?? 443
    let read = await Bounded.run(within: bound) { () -> Result<Date, DeckError> in
      do {
        return .success(try await providers.certificateExpiry(host: host, port: port, timeout: bound))
      } catch {
        return .failure(ErrorPresenter.deckError(for: error))
      }
    }
    return read
      ?? .failure(DeckError(.unavailable(status: nil), "no TLS handshake within \(bound.components.seconds) s"))
  }
}
