import DeckAuth
import DeckConfig
import DeckCore
import DeckSupport
import Foundation
import SandboxAdminAPI
import Synchronization
import Testing

@testable import DeckBuiltins

/// `deck doctor`'s service checks: an answer, its speed, plain http, the certificate and the
/// clock, each with its verdict and fix.
extension DoctorTests {
  func answered(_ url: String, status: Int = 404, skew: Double = 0, certificate: Result<Date, DeckError>? = nil)
    -> ServiceProbe
  {
    ServiceProbe(
      url: url,
      answer: .answered(
        status: status, milliseconds: 3, serverDate: now.addingTimeInterval(skew), localDate: now),
      certificate: certificate)
  }

  @Test func serviceVerdicts() {
    let ok = ServiceChecks.evaluate(
      service: .flyr, environment: local, target: .probed(answered("http://127.0.0.1:8787")), bound: .seconds(2),
      now: now)
    #expect(ok == .ok("service flyr", "http://127.0.0.1:8787 answered HTTP 404 in 3 ms"))

    let down = ServiceChecks.evaluate(
      service: .auth, environment: local,
      target: .probed(
        ServiceProbe(
          url: "http://127.0.0.1:9",
          answer: .failed(
            DeckError(
              .unavailable(status: nil), "Cannot reach 127.0.0.1:9: connection refused.", isConnectError: true)))),
      bound: .seconds(2), now: now)
    #expect(down.status == .error)
    #expect(down.fix == "deck sandbox serve --port 9")
    #expect(down.detail.contains("connection refused"))

    // No connection at all: down, with the command that serves it.
    let silent = ServiceChecks.evaluate(
      service: .auth, environment: local,
      target: .probed(ServiceProbe(url: "http://127.0.0.1:8787", answer: .timedOut)), bound: .seconds(2), now: now)
    #expect(silent.status == .error)
    #expect(silent.detail == "http://127.0.0.1:8787: no connection within 2 s")
    #expect(silent.fix == "deck sandbox serve")

    // Issue 31: it took the connection but did not answer in time: slow, never down, and the
    // fix is what slows it (the sandbox's delay when it has one), not `deck sandbox serve`.
    let slow = ServiceChecks.evaluate(
      service: .auth, environment: local,
      target: .probed(ServiceProbe(url: "http://127.0.0.1:8787", answer: .slow)), bound: .seconds(2), now: now)
    #expect(
      slow
        == .warning(
          "service auth", "http://127.0.0.1:8787 is slow: no answer within 2 s",
          fix: "see the sandbox's delay and fault rules: deck sandbox status"))
    let delayed = ServiceChecks.evaluate(
      service: .auth, environment: local,
      target: .probed(ServiceProbe(url: "http://127.0.0.1:8787", answer: .slow)), bound: .seconds(2),
      sandboxDelay: 2000, now: now)
    #expect(delayed.status == .warning)
    #expect(
      delayed.detail
        == "http://127.0.0.1:8787 is slow: no answer within 2 s (the sandbox delays every API response by 2000 ms)")
    #expect(delayed.fix == "deck sandbox delay 0")
    let production = ResolvedEnvironment(
      definition: BuiltinEnvironments.named("production")!, source: .flag, overriddenServices: [])
    let slowServer = ServiceChecks.evaluate(
      service: .auth, environment: production,
      target: .probed(ServiceProbe(url: "https://auth.example.com", answer: .slow)), bound: .seconds(2), now: now)
    #expect(slowServer.status == .warning)
    #expect(slowServer.fix == "try again later; deck's commands wait up to --timeout SECONDS (30 by default)")

    // The sandbox took the connection and broke the answer (a reset rule): not down either.
    let broken = ServiceChecks.evaluate(
      service: .auth, environment: local,
      target: .probed(
        ServiceProbe(
          url: "http://127.0.0.1:8787",
          answer: .failed(
            DeckError(.unavailable(status: nil), "127.0.0.1:8787 closed the connection before answering.")))
      ), bound: .seconds(2), now: now)
    #expect(broken.status == .error)
    #expect(broken.fix == "see the sandbox's fault rules: deck sandbox fault list")

    let failing = ServiceChecks.evaluate(
      service: .flyr, environment: local, target: .probed(answered("http://127.0.0.1:8787", status: 503)),
      bound: .seconds(2), now: now)
    #expect(failing.status == .warning)

    let missing = ServiceChecks.evaluate(
      service: .flyr, environment: local,
      target: .noURL(DeckError.configuration("no URL", hint: "deck env set dev flyr=https://HOST")), bound: .seconds(2))
    #expect(missing == .warning("service flyr", "no URL", fix: "deck env set dev flyr=https://HOST"))
  }

  /// Issue 31: a sandbox's delay and fault rules in force, with the commands that clear them.
  @Test func injectedFaultVerdicts() {
    #expect(
      InjectedFaultsCheck.evaluate(.success(InjectedFaults(delayMilliseconds: 0, rules: [])))
        == .ok("injected faults", "none: no delay and no fault rules"))
    let rule = Components.Schemas.Fault(
      id: 2, method: .GET, path: "/api/**", action: .status, status: 503, latencyMs: 0, remaining: 1, probability: 1,
      fired: 0)
    let delayed = InjectedFaultsCheck.evaluate(.success(InjectedFaults(delayMilliseconds: 2000, rules: [])))
    #expect(
      delayed == .warning("injected faults", "every API response is delayed by 2000 ms", fix: "deck sandbox delay 0"))
    let both = InjectedFaultsCheck.evaluate(.success(InjectedFaults(delayMilliseconds: 150, rules: [rule])))
    #expect(both.status == .warning)
    #expect(
      both.detail
        == "every API response is delayed by 150 ms; 1 fault rule in force (rule 2: GET /api/** → 503, 1 more time)")
    #expect(both.fix == "deck sandbox delay 0 && deck sandbox fault clear")
    let unasked = InjectedFaultsCheck.evaluate(
      .failure(
        DeckError(.unauthorized(status: nil), "No admin token.", hint: "deck env set local sandbox-admin-token=TOKEN")))
    #expect(unasked.status == .warning)
    #expect(unasked.detail == "cannot ask the sandbox for its delay and fault rules: No admin token.")
    #expect(unasked.fix == "deck env set local sandbox-admin-token=TOKEN")
  }

  @Test(arguments: [(40.0, DoctorCheck.Status.ok), (13.5, .warning), (-2, .error)])
  func certificateDaysLeft(days: Double, status: DoctorCheck.Status) {
    let expiry = now.addingTimeInterval(days * 86_400)
    let check = ServiceChecks.evaluate(
      service: .nudge, environment: local,
      target: .probed(answered("https://api.example.com", status: 200, certificate: .success(expiry))),
      bound: .seconds(2), now: now)
    #expect(check.status == status)
    if status == .warning { #expect(check.detail.contains("expires in 13 days")) }
    if status == .ok { #expect(check.detail.contains("certificate valid for 40 more days")) }
    if status == .error { #expect(check.detail.contains("expired")) }
  }

  @Test func plainHTTPToAHostThatIsNotLoopbackIsAWarning() {
    var definition = EnvironmentDefinition(name: "lab", urls: [.flyr: "http://lab.example.com"])
    definition.allowInsecureHTTP = true
    let lab = ResolvedEnvironment(definition: definition, source: .flag, overriddenServices: [])
    let check = ServiceChecks.evaluate(
      service: .flyr, environment: lab, target: .probed(answered("http://lab.example.com", status: 200)),
      bound: .seconds(2), now: now)
    #expect(check.status == .warning)
    #expect(check.fix == "deck env set lab flyr=https://lab.example.com")
  }

  @Test func clockSkewBeyondAMinuteIsAWarning() {
    let skewed = ClockCheck.evaluate(ClockCheck.samples([answered("http://a", skew: -300)]))
    #expect(skewed.status == .warning)
    #expect(skewed.detail.contains("4 min 59 s ahead of http://a"))
    let behind = ClockCheck.evaluate(ClockCheck.samples([answered("http://a"), answered("http://b", skew: 90)]))
    #expect(behind.status == .warning)
    #expect(behind.detail.contains("1 min 30 s behind http://b"))
    #expect(ClockCheck.evaluate(ClockCheck.samples([answered("http://a", skew: 20)])).status == .ok)
    #expect(ClockCheck.evaluate([]).status == .warning)
  }
}
