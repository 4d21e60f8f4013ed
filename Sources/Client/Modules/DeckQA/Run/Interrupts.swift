import DeckCore
import Dispatch
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Ctrl-C during `deck qa run`: the steps run in process groups of their own, so the terminal's
/// SIGINT reaches deck alone. The first SIGINT, SIGTERM or SIGHUP cancels the run: each running
/// step is stopped, nothing new starts but `always` (cleanup) steps, the report is written and
/// deck exits 130. A second one ends deck at once.
enum Interrupts {
  final class State: Sendable {
    let count = Atomic<Int>(0)
  }

  /// `body`'s result, and whether a signal cancelled it.
  static func cancellable<T: Sendable>(_ body: @escaping @Sendable () async -> T) async -> (value: T, interrupted: Bool)
  {
    let task = Task { await body() }
    let state = State()
    let signals = [SIGINT, SIGTERM, SIGHUP]
    let saved = LocalProcess.ignoreSignals(signals)
    let sources = signals.map { number in
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        if state.count.add(1, ordering: .relaxed).oldValue > 0 { _exit(130) }
        task.cancel()
      }
      source.resume()
      return source
    }
    let value = await task.value
    for source in sources { source.cancel() }
    LocalProcess.restoreSignals(saved)
    return (value, state.count.load(ordering: .relaxed) > 0)
  }
}
