import DeckSupport
import FoundationEssentials
import HTTPTypes

/// When deck retries a request, and how long it waits first. Pure, so it is unit-tested.
///
/// Only idempotent requests are retried, only on connect errors and 429/502/503/504 (and a 500
/// once: workspace-onboarding.md §6, "500: retry once; show a generic error"), with
/// exponential backoff and jitter, honouring `Retry-After`, for a bounded number of tries.
public struct RetryPolicy: Sendable, Equatable {
  /// Tries in all, the first included.
  public var maxAttempts: Int
  public var baseDelay: Duration
  public var maxDelay: Duration
  /// The longest `Retry-After` deck waits for; a longer one ends the retries.
  public var maxRetryAfter: Duration

  public static let `default` = RetryPolicy(
    maxAttempts: 3, baseDelay: .milliseconds(200), maxDelay: .seconds(5), maxRetryAfter: .seconds(30))

  public init(maxAttempts: Int, baseDelay: Duration, maxDelay: Duration, maxRetryAfter: Duration) {
    self.maxAttempts = maxAttempts
    self.baseDelay = baseDelay
    self.maxDelay = maxDelay
    self.maxRetryAfter = maxRetryAfter
  }

  public static let idempotentMethods: Set<HTTPRequest.Method> = [.get, .head, .put, .delete, .options, .trace]
  public static let retryableStatuses: Set<Int> = [429, 502, 503, 504]

  /// Whether to try again after `attempt` tries (1 after the first) ended with `status`
  /// (nil when the request failed before a response) or a connect error.
  public func shouldRetry(method: HTTPRequest.Method, attempt: Int, status: Int?, connectError: Bool) -> Bool {
    guard attempt < maxAttempts, Self.idempotentMethods.contains(method) else { return false }
    if status == 500 { return attempt < 2 }
    if let status { return Self.retryableStatuses.contains(status) }
    return connectError
  }

  /// The wait before the next try. `jitter` is a random number in 0..<1.
  /// Returns nil, which ends the retries, when the server sends a `Retry-After` that is not a
  /// plain number of seconds or a valid HTTP date (`1e300`, `inf`, `soon`, a date in the year
  /// 99999), or that asks for more than `maxRetryAfter`. Without a `Retry-After`, the backoff.
  public func delay(afterAttempt attempt: Int, retryAfter: String?, jitter: Double) -> Duration? {
    if let retryAfter {
      guard let seconds = Self.parseRetryAfter(retryAfter), seconds <= maxRetryAfter / .seconds(1) else { return nil }
      // parseRetryAfter gives a finite value in 0...maxRetryAfterSeconds, so this cannot overflow.
      return .milliseconds(Int64((seconds * 1000).rounded()))
    }
    let exponent = attempt <= 1 ? 0 : min(attempt - 1, 20)
    let backoff = min(baseDelay * (1 << exponent), maxDelay)
    // "Equal jitter": half fixed, half random, so waits spread out but never collapse to zero.
    let fraction = jitter.isFinite ? min(max(jitter, 0), 1) : 0
    return backoff / 2 + backoff / 2 * fraction
  }

  /// The largest `Retry-After` deck parses (a year); anything larger (or not a finite
  /// number, or a date too far away) is refused like any unreadable value, which ends the retries.
  public static let maxRetryAfterSeconds: Double = 365 * 86_400

  /// `Retry-After` as delta-seconds (`120`) or an HTTP date, in seconds from `now`.
  /// Returns nil for anything that is not a finite, non-negative wait of at most a year
  /// (`1e300`, `inf`, `nan`, `-1`, a date in the year 9223372036854775807), so callers never
  /// convert an out-of-range number.
  public static func parseRetryAfter(_ value: String, now: Double = Date().timeIntervalSince1970) -> Double? {
    let trimmed = value.trimming(.whitespaces)
    guard !trimmed.isEmpty, trimmed.utf8.count <= 64 else { return nil }
    // RFC 9110: delta-seconds is 1*DIGIT. Double("inf"), Double("nan") and "1e300" are not.
    if trimmed.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
      guard let seconds = Double(trimmed), seconds.isFinite, seconds <= maxRetryAfterSeconds else { return nil }
      return seconds
    }
    guard now.isFinite, let date = HTTPDate.parse(trimmed) else { return nil }
    let wait = max(date - now, 0)
    return wait.isFinite && wait <= maxRetryAfterSeconds ? wait : nil
  }
}

/// IMF-fixdate parsing (`Sun, 06 Nov 1994 08:49:37 GMT`), enough for `Retry-After` and `Date`.
public enum HTTPDate {
  static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

  /// Seconds since 1970, or nil for anything but an IMF-fixdate.
  public static func parse(_ text: String) -> Double? {
    let parts = text.split(separator: " ")
    guard parts.count == 6, parts[5] == "GMT", parts[1].count <= 2, parts[3].count == 4,
      let day = Int(parts[1]), (1...31).contains(day),
      let month = months.firstIndex(of: String(parts[2])), let year = Int(parts[3]), (1...9999).contains(year)
    else { return nil }
    let time = parts[4].split(separator: ":", omittingEmptySubsequences: false)
    guard time.count == 3, time.allSatisfy({ $0.count == 2 }) else { return nil }
    guard let hour = Int(time[0]), (0...23).contains(hour), let minute = Int(time[1]), (0...59).contains(minute),
      let second = Int(time[2]), (0...60).contains(second)
    else { return nil }
    // Every value is range-checked above, so this arithmetic cannot overflow.
    return Double(daysFromCivil(year: year, month: month + 1, day: day) * 86_400 + hour * 3600 + minute * 60 + second)
  }

  /// Days since 1970-01-01 (Howard Hinnant's algorithm).
  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }
}
