import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
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
    var saved: [sigaction] = []
    var sources: [any DispatchSourceSignal] = []
    for number in signals {
      var ignore = sigaction()
      #if canImport(Glibc)
        ignore.__sigaction_handler.sa_handler = SIG_IGN
      #else
        ignore.__sigaction_u.__sa_handler = SIG_IGN
      #endif
      var previous = sigaction()
      sigaction(number, &ignore, &previous)
      saved.append(previous)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        if state.count.add(1, ordering: .relaxed).oldValue > 0 { _exit(130) }
        task.cancel()
      }
      source.resume()
      sources.append(source)
    }
    let value = await task.value
    for (index, number) in signals.enumerated() {
      sources[index].cancel()
      var previous = saved[index]
      sigaction(number, &previous, nil)
    }
    return (value, state.count.load(ordering: .relaxed) > 0)
  }
}
