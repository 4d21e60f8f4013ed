import Foundation
import Synchronization

/// How many wrong passwords the auth service takes in a minute before it answers 429, as
/// GoTrue's rate limits do: per account (its email) and per client address. Only failed
/// sign-ins to an account that exists count (a successful sign-in, a refresh, a sign-up or an
/// unknown email never do), so a client that knows its password never meets the limit.
package struct SignInLimits: Sendable, Equatable {
  /// Failed sign-ins a minute to one account; nil: no limit.
  package var perEmail: Int?
  /// Failed sign-ins a minute from one client address (the TCP peer; behind a proxy, the
  /// proxy's); nil: no limit.
  package var perAddress: Int?

  package init(perEmail: Int?, perAddress: Int?) {
    self.perEmail = perEmail
    self.perAddress = perAddress
  }

  /// 10 a minute per account, 30 per address (`serve --rate-limit 10:30`).
  package static let standard = SignInLimits(perEmail: 10, perAddress: 30)
  /// No limit (`serve --rate-limit off`).
  package static let off = SignInLimits(perEmail: nil, perAddress: nil)
}

/// Counts failed password sign-ins over a sliding minute, in this server's memory (each
/// instance on a shared PostgreSQL database counts its own).
package final class SignInThrottle: Sendable {
  static let window: Duration = .seconds(60)
  /// Keys kept before old ones are swept (each key holds at most its limit of instants).
  static let sweepAbove = 10_000

  let limits: SignInLimits
  private let clock = ContinuousClock()
  private let failures = Mutex<[Key: [ContinuousClock.Instant]]>([:])

  enum Key: Hashable {
    case email(String)
    case address(String)
  }

  package init(limits: SignInLimits) {
    self.limits = limits
  }

  /// The seconds to wait before a sign-in to `email` from `address` is taken again, or nil
  /// when it may go ahead.
  func retryAfter(email: String, address: String?) -> Int? {
    let now = clock.now
    return failures.withLock { failures in
      var wait: Duration?
      for (key, limit) in keys(email: email, address: address) {
        let recent = (failures[key] ?? []).filter { now - $0 < Self.window }
        guard recent.count >= limit, let oldest = recent.first else { continue }
        let until = Self.window - (now - oldest)
        wait = max(wait ?? .zero, until)
      }
      return wait.map { Int(($0 / .seconds(1)).rounded(.up)).clamped(to: 1...60) }
    }
  }

  /// Counts a wrong password for the account `email`, sent from `address`.
  func recordFailure(email: String, address: String?) {
    let now = clock.now
    failures.withLock { failures in
      if failures.count > Self.sweepAbove {
        failures = failures.filter { _, instants in instants.last.map { now - $0 < Self.window } ?? false }
      }
      for (key, limit) in keys(email: email, address: address) {
        var recent = (failures[key] ?? []).filter { now - $0 < Self.window }
        recent.append(now)
        failures[key] = Array(recent.suffix(limit))
      }
    }
  }

  private func keys(email: String, address: String?) -> [(Key, Int)] {
    var keys: [(Key, Int)] = []
    if let limit = limits.perEmail { keys.append((.email(email), limit)) }
    if let limit = limits.perAddress, let address { keys.append((.address(address), limit)) }
    return keys
  }
}

extension Int {
  fileprivate func clamped(to range: ClosedRange<Int>) -> Int {
    Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
  }
}
