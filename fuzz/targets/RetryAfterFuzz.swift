// libFuzzer target: Retry-After parsing and the wait it leads to. Invariants: nothing traps;
// a parsed wait is finite, non-negative and at most a year; a delay never exceeds the cap.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  for now in [0, 1_700_000_000, -1e18, 1e300] as [Double] {
    if let seconds = RetryPolicy.parseRetryAfter(text, now: now) {
      precondition(seconds.isFinite && seconds >= 0 && seconds <= RetryPolicy.maxRetryAfterSeconds)
    }
  }
  let policy = RetryPolicy.default
  for attempt in [0, 1, 3, Int.max, Int.min] {
    if let wait = policy.delay(afterAttempt: attempt, retryAfter: text, jitter: Double(size % 7) / 6) {
      precondition(wait >= .zero && wait <= max(policy.maxRetryAfter, policy.maxDelay))
    }
  }
  _ = HTTPDate.parse(text)
  return 0
}
