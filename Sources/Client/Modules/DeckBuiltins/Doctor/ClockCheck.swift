import DeckCore
import FoundationEssentials

/// This computer's clock against the servers' `Date` headers: deck decides whether a token has
/// expired by this clock, so a skewed one sends expired tokens or refreshes too early.
enum ClockCheck {
  /// A skew beyond this is a warning.
  static let tolerance: Double = 60

  struct Sample: Sendable, Equatable {
    var url: String
    var serverDate: Date
    var localDate: Date
  }

  /// The samples from the services' answers (those that sent a `Date` header).
  static func samples(_ probes: [ServiceProbe]) -> [Sample] {
    probes.compactMap { probe in
      guard case .answered(_, _, let serverDate?, let localDate) = probe.answer else { return nil }
      return Sample(url: probe.url, serverDate: serverDate, localDate: localDate)
    }
  }

  static func evaluate(_ samples: [Sample]) -> DoctorCheck {
    let name = "clock"
    // A Date header has whole seconds: the server's clock read somewhere in the second after it.
    let skews = samples.map { ($0.url, $0.serverDate.timeIntervalSince($0.localDate) + 0.5) }
    guard let (url, skew) = skews.max(by: { abs($0.1) < abs($1.1) }) else {
      return .warning(
        name, "not checked: no server answered with a Date header",
        fix: "get the services above to answer, then run deck doctor again")
    }
    let servers = samples.count == 1 ? "the server" : "\(Set(samples.map(\.url)).count) servers"
    guard abs(skew) > tolerance else {
      return .ok(name, "within \(DurationText.words(max(1, abs(skew).rounded()))) of \(servers) (Date headers)")
    }
    let direction = skew > 0 ? "behind" : "ahead of"
    return .warning(
      name,
      "this computer's clock is \(DurationText.words(abs(skew))) \(direction) \(url) (its Date header); token expiry is judged by this clock",
      fix: "sync the clock: sudo timedatectl set-ntp true  (or ntpdate/chrony)")
  }
}
