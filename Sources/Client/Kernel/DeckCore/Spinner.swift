import DeckSupport
import FoundationEssentials
import Synchronization

/// A one-line progress spinner on stderr, shown only when stderr is a terminal. Used while
/// deck waits (polling for access, the kiosk's attract screen).
public final class Spinner: Sendable {
  private static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
  private let output: Output
  private let message = Mutex<String>("")
  private let task = Mutex<Task<Void, Never>?>(nil)

  public init(output: Output) { self.output = output }

  /// Starts spinning with `text`; calling it again changes the text.
  public func start(_ text: String) {
    message.withLock { $0 = TerminalText.sanitize(text) }
    guard output.stderrIsTerminal else { return }
    task.withLock { task in
      guard task == nil else { return }
      task = Task { [self] in
        var frame = 0
        while !Task.isCancelled {
          self.output.writeErr("\r\u{1B}[K\(Self.frames[frame % Self.frames.count]) \(self.message.withLock { $0 })")
          frame += 1
          try? await Task.sleep(for: .milliseconds(80))
        }
      }
    }
  }

  /// Stops and clears the line; prints `final` (on stderr) if given.
  public func stop(_ final: String? = nil) {
    let running = task.withLock { task -> Task<Void, Never>? in
      defer { task = nil }
      return task
    }
    running?.cancel()
    if running != nil { output.writeErr("\r\u{1B}[K") }
    if let final { output.info(final) }
  }
}
