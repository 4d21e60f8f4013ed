/// A full-screen program (the kiosk, the quiz) as `FullScreenLoop` runs it: a screen drawn
/// from its state, and its state changed by keys, by signals and by its own events (a
/// request's result, a timer). Every method is called on the loop's task, one at a time.
public protocol FullScreenApp: AnyObject {
  /// The program's own events, posted through `FullScreenEvents` from tasks it starts.
  associatedtype Event: Sendable
  /// What the program ends with.
  associatedtype Outcome

  /// Called once, when the terminal is in raw mode and keys are read, before the first frame.
  /// `events` posts the program's own events into the loop (keep it for tasks started later).
  func begin(_ events: FullScreenEvents<Event>)
  /// The screen for a terminal of this size: at most `rows` lines, none wider than `columns`.
  /// Called after `begin` and after every key, signal or event that did not end the program.
  func frame(columns: Int, rows: Int) -> [String]
  /// A key: an outcome ends the program, nil goes on.
  func handle(_ key: Key) -> Outcome?
  /// One of the program's own events: an outcome ends the program, nil goes on.
  func handle(event: Event) -> Outcome?
  /// SIGINT from outside (Ctrl-C on the keyboard is the key `.control("c")` in raw mode).
  func interrupted() -> Outcome?
  /// stdin closed: the program must end.
  func inputEnded() -> Outcome
  /// The task running the loop was cancelled: the program must end.
  func cancelled() -> Outcome
}

/// Posts a full-screen program's own events into its loop, from any task.
public struct FullScreenEvents<Event: Sendable>: Sendable {
  let continuation: AsyncStream<FullScreenInput<Event>>.Continuation

  /// Posts `event`; false once the loop has ended (the event is dropped), so that a task
  /// posting repeatedly (a timer) knows to stop.
  @discardableResult
  public func post(_ event: Event) -> Bool {
    if case .terminated = continuation.yield(.event(event)) { return false }
    return true
  }
}

/// What the loop waits for: the terminal's events and the program's own.
enum FullScreenInput<Event: Sendable>: Sendable {
  case terminal(TerminalEvent)
  case event(Event)
}

/// The terminal a full-screen loop draws on: `RawTerminal`, or a scripted one in tests.
public protocol FullScreenTerminal {
  /// Columns and rows, read before each frame.
  var size: (columns: Int, rows: Int) { get }
  /// Delivers keys and signals to `handler`, from any thread, until `restore()`.
  func startReading(_ handler: @escaping @Sendable (TerminalEvent) -> Void)
  /// Sends text and escape sequences to the terminal.
  func send(_ text: String)
  /// Puts the terminal back as it was (idempotent).
  func restore()
}

extension RawTerminal: FullScreenTerminal {
  public func send(_ text: String) { Self.output(text) }
}

/// The one event loop of deck's full-screen programs: it reads keys and signals, hands them
/// and the program's own events to the program one at a time, redraws after each (only the
/// lines that changed; everything after a resize), and restores the terminal however the
/// program ends.
public enum FullScreenLoop {
  /// Switches the terminal to raw mode (`purpose` names the program in the error shown when
  /// there is no terminal), runs `app` on it and restores it.
  public static func run<App: FullScreenApp>(_ app: App, purpose: String) async throws -> App.Outcome {
    await run(app, on: try RawTerminal(purpose: purpose))
  }

  /// Runs `app` on `terminal`, which is in raw mode; restores it before returning.
  public static func run<App: FullScreenApp, Terminal: FullScreenTerminal>(
    _ app: App, on terminal: Terminal
  ) async -> App.Outcome {
    defer { terminal.restore() }
    let (inputs, continuation) = AsyncStream.makeStream(of: FullScreenInput<App.Event>.self)
    // Events posted after the program ended are dropped (and tell their poster so).
    defer { continuation.finish() }
    let renderer = FrameRenderer(write: { terminal.send($0) })
    func draw() {
      let size = terminal.size
      renderer.draw(app.frame(columns: size.columns, rows: size.rows), columns: size.columns, rows: size.rows)
    }
    terminal.startReading { continuation.yield(.terminal($0)) }
    app.begin(FullScreenEvents(continuation: continuation))
    draw()
    return await withTaskCancellationHandler {
      for await input in inputs {
        switch input {
        case .terminal(.keys(let keys)):
          for key in keys {
            if let outcome = app.handle(key) { return outcome }
          }
        case .terminal(.resize):
          renderer.invalidate()
        case .terminal(.interrupt):
          if let outcome = app.interrupted() { return outcome }
        case .terminal(.endOfInput):
          return app.inputEnded()
        case .event(let event):
          if let outcome = app.handle(event: event) { return outcome }
        }
        draw()
      }
      return app.cancelled()
    } onCancel: {
      continuation.finish()
    }
  }
}
