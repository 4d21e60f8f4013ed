import DeckCore
import Synchronization
import Testing

/// A terminal that delivers scripted keys and signals, one step each time the program draws a
/// frame (so a step comes after the previous one was handled and drawn), and records what is
/// written to it and when it is restored.
final class ScriptedTerminal: FullScreenTerminal, Sendable {
  enum Step: Sendable {
    case event(TerminalEvent)
    /// The window takes this size, then SIGWINCH arrives.
    case resize(columns: Int, rows: Int)
  }

  /// What reached the terminal, in order: text written, and "<restored>".
  enum Record: Equatable {
    case written(String)
    case restored
  }

  private struct State {
    var script: [Step]
    var size = (columns: 80, rows: 24)
    var handler: (@Sendable (TerminalEvent) -> Void)?
    var records: [Record] = []
  }

  private let state: Mutex<State>

  init(_ script: [Step] = []) {
    state = Mutex(State(script: script))
  }

  var size: (columns: Int, rows: Int) { state.withLock { $0.size } }
  var records: [Record] { state.withLock { $0.records } }
  var restoreCount: Int { records.filter { $0 == .restored }.count }
  /// Everything written, as one text.
  var written: String {
    records.map { if case .written(let text) = $0 { text } else { "" } }.joined()
  }

  func startReading(_ handler: @escaping @Sendable (TerminalEvent) -> Void) {
    state.withLock { $0.handler = handler }
  }

  func send(_ text: String) { state.withLock { $0.records.append(.written(text)) } }

  func restore() { state.withLock { $0.records.append(.restored) } }

  /// Delivers the next step of the script, if any.
  func next() {
    let delivery: (@Sendable () -> Void)? = state.withLock { state in
      guard !state.script.isEmpty, let handler = state.handler else { return nil }
      switch state.script.removeFirst() {
      case .event(let event):
        return { handler(event) }
      case .resize(let columns, let rows):
        state.size = (columns, rows)
        return { handler(.resize) }
      }
    }
    delivery?()
  }
}

/// A counter: + and - change it, q quits with it, e starts a task that posts events (+5,
/// then finish); SIGINT asks once ("really?") and ends the program the second time.
final class CounterApp: FullScreenApp {
  enum Event: Sendable {
    case add(Int)
    case finish
  }

  enum Outcome: Equatable {
    case quit(Int)
    case interrupted, inputEnded, cancelled
  }

  let terminal: ScriptedTerminal
  var count = 0
  var asking = false
  var events: FullScreenEvents<Event>?
  /// The sizes frames were asked for ("80x24"), in order.
  var frames: [String] = []
  var keysHandled: [Key] = []

  init(_ terminal: ScriptedTerminal) {
    self.terminal = terminal
  }

  func begin(_ events: FullScreenEvents<Event>) {
    self.events = events
  }

  func frame(columns: Int, rows: Int) -> [String] {
    frames.append("\(columns)x\(rows)")
    defer { terminal.next() }
    return ["count \(count)", asking ? "really?" : ""]
  }

  func handle(_ key: Key) -> Outcome? {
    keysHandled.append(key)
    switch key {
    case .character("+"): count += 1
    case .character("-"): count -= 1
    case .character("q"), .control("c"): return .quit(count)
    case .character("e"):
      let events = events
      Task.detached {
        events?.post(.add(5))
        events?.post(.finish)
      }
    default: break
    }
    return nil
  }

  func handle(event: Event) -> Outcome? {
    switch event {
    case .add(let amount):
      count += amount
      return nil
    case .finish:
      return .quit(count)
    }
  }

  func interrupted() -> Outcome? {
    if asking { return .interrupted }
    asking = true
    return nil
  }

  func inputEnded() -> Outcome { .inputEnded }
  func cancelled() -> Outcome { .cancelled }
}

@Suite("Terminal kit: the full-screen loop")
struct FullScreenLoopTests {
  static let clear = "\u{1B}[H\u{1B}[2J"

  @Test("keys are handled in order; q ends the program with its outcome, the keys after it are dropped")
  func quitsOnKey() async {
    let terminal = ScriptedTerminal([
      .event(.keys([.character("+")])), .event(.keys([.character("+"), .character("q"), .character("+")])),
    ])
    let app = CounterApp(terminal)
    let outcome = await FullScreenLoop.run(app, on: terminal)
    #expect(outcome == .quit(2))
    #expect(app.keysHandled == [.character("+"), .character("+"), .character("q")])
    // The first frame, and one after the first key; none after the key that ended it.
    #expect(app.frames == ["80x24", "80x24"])
    #expect(terminal.written.contains("count 1"))
    #expect(!terminal.written.contains("count 2"))
  }

  @Test("Ctrl-C in raw mode is a key: the program decides what it does")
  func controlCIsAKey() async {
    let terminal = ScriptedTerminal([.event(.keys([.character("+"), .control("c")]))])
    let app = CounterApp(terminal)
    #expect(await FullScreenLoop.run(app, on: terminal) == .quit(1))
  }

  @Test("SIGINT from outside asks the program: it can go on (and is redrawn) or end")
  func interruptAsksTheProgram() async {
    let terminal = ScriptedTerminal([.event(.interrupt), .event(.interrupt)])
    let app = CounterApp(terminal)
    #expect(await FullScreenLoop.run(app, on: terminal) == .interrupted)
    #expect(app.frames.count == 2)
    #expect(terminal.written.contains("really?"))
  }

  @Test("stdin closing ends the program with its end-of-input outcome")
  func endOfInput() async {
    let terminal = ScriptedTerminal([.event(.keys([.character("+")])), .event(.endOfInput)])
    let app = CounterApp(terminal)
    #expect(await FullScreenLoop.run(app, on: terminal) == .inputEnded)
    #expect(terminal.restoreCount == 1)
  }

  @Test("a resize repaints the whole screen at the new size; an unchanged frame writes nothing")
  func resizeRepaints() async {
    let terminal = ScriptedTerminal([
      .event(.keys([.character("x")])),  // changes nothing on screen
      .resize(columns: 100, rows: 30),
      .resize(columns: 100, rows: 30),  // SIGWINCH without a change of size: repainted all the same
      .event(.keys([.character("q")])),
    ])
    let app = CounterApp(terminal)
    #expect(await FullScreenLoop.run(app, on: terminal) == .quit(0))
    #expect(app.frames == ["80x24", "80x24", "100x30", "100x30"])
    let writes = terminal.records.compactMap { if case .written(let text) = $0 { text } else { nil } }
    #expect(writes.count == 3)
    #expect(writes.allSatisfy { $0.hasPrefix(Self.clear) && $0.contains("count 0") })
  }

  @Test("the program's own events, posted from another task, are handled and redrawn")
  func programEvents() async {
    let terminal = ScriptedTerminal([.event(.keys([.character("+"), .character("e")]))])
    let app = CounterApp(terminal)
    #expect(await FullScreenLoop.run(app, on: terminal) == .quit(6))
    #expect(terminal.written.contains("count 6"))
    // Once the loop has ended, posting tells the poster to stop (a timer's task).
    #expect(app.events?.post(.add(1)) == false)
  }

  @Test("the terminal is restored once, last, however the program ends")
  func restoresTheTerminal() async {
    for script: [ScriptedTerminal.Step] in [
      [.event(.keys([.character("q")]))], [.event(.endOfInput)], [.event(.interrupt), .event(.interrupt)],
    ] {
      let terminal = ScriptedTerminal(script)
      _ = await FullScreenLoop.run(CounterApp(terminal), on: terminal)
      #expect(terminal.restoreCount == 1)
      #expect(terminal.records.last == .restored)
    }
  }

  @Test("cancelling the task ends the program with its cancelled outcome and restores the terminal")
  func cancellation() async {
    let terminal = ScriptedTerminal()
    let task = Task {
      await FullScreenLoop.run(CounterApp(terminal), on: terminal)
    }
    // Wait for the first frame, so that the loop is waiting for input when it is cancelled.
    while terminal.written.isEmpty { try? await Task.sleep(for: .milliseconds(1)) }
    task.cancel()
    #expect(await task.value == .cancelled)
    #expect(terminal.restoreCount == 1)
    #expect(terminal.records.last == .restored)
  }
}
