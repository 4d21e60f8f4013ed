import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The full-screen quiz through the real binary on pseudo-terminals of the sizes of issue 26
/// (120×40, 80×24, 50×20, 40×24, 30×10), and resized while it runs. What the program wrote is
/// replayed on `ScreenModel` (TestSupport), a small terminal that wraps and scrolls as a real one does, so a
/// line wider than the terminal shows up as the broken frame a person would see.
@Suite("MBTI quiz screen sizes", .endToEndTimeLimit)
struct MbtiQuizScreenEndToEndTests {
  /// A terminal session with its size changes, replayed on a model screen.
  final class Session {
    let pty: PseudoTerminal
    var columns: Int
    var rows: Int
    /// Where in the output each size took effect.
    var sizes: [(offset: Int, columns: Int, rows: Int)]

    init(_ deck: DeckCLI, _ arguments: [String], columns: Int, rows: Int) throws {
      pty = try PseudoTerminal(
        deck: deck, arguments, environment: ["DECK_REDUCE_MOTION": "1"], columns: UInt16(columns))
      self.columns = columns
      self.rows = rows
      sizes = [(0, columns, rows)]
      setSize()
    }

    private func setSize() {
      var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
      _ = ioctl(pty.master, UInt(TIOCSWINSZ), &size)
    }

    /// Reads until the program has written nothing for a while (a frame can take several reads).
    func settle() {
      var size = pty.raw.utf8.count
      var quiet = 0
      let deadline = Date().addingTimeInterval(5)
      while quiet < 3, Date() < deadline {
        _ = pty.pending(waiting: 0.1)
        let now = pty.raw.utf8.count
        quiet = now == size ? quiet + 1 : 0
        size = now
      }
    }

    /// Resizes the terminal (the program gets SIGWINCH).
    func resize(columns: Int, rows: Int) {
      settle()
      sizes.append((pty.raw.unicodeScalars.count, columns, rows))
      self.columns = columns
      self.rows = rows
      setSize()
    }

    /// The screen now, once the output has settled.
    func screen() -> ScreenModel {
      settle()
      let output = Array(pty.raw.unicodeScalars)
      var model = ScreenModel(columns: sizes[0].columns, rows: sizes[0].rows)
      var position = 0
      for (index, size) in sizes.enumerated() {
        let end = index + 1 < sizes.count ? min(sizes[index + 1].offset, output.count) : output.count
        if index > 0 { model.resize(columns: size.columns, rows: size.rows) }
        model.feed(output[min(position, end)..<end])
        position = end
      }
      return model
    }
  }

  /// Checks a quiz frame: the header on the first row, one focus marker, one progress line,
  /// the navigation, the cursor's value in whole brackets, and the last column never used.
  func expectWholeFrame(_ model: ScreenModel, page: Int, answered: Int, cursor: Int, _ stage: String) {
    let text = model.text
    let comment = "\(stage), \(model.columns)×\(model.rows):\n\(text)"
    #expect(model.lines[0].hasPrefix("MBTI quiz"), "\(comment)")
    #expect(model.lines[0].trimmingCharacters(in: .whitespaces).hasSuffix("Page \(page) of 4"), "\(comment)")
    #expect(model.lines.count { $0.contains("▶ ") } == 1, "\(comment)")
    #expect(model.lines.count { $0.contains(" of 24 answered") } == 1, "\(comment)")
    #expect(model.lines[1].contains("\(answered) of 24 answered"), "\(comment)")
    #expect(model.lines.contains { $0.contains("[n] Next") || $0.contains("[n] Submit") }, "\(comment)")
    #expect(
      model.lines.contains { $0.contains("[○ \(cursor)") || $0.contains("[● \(cursor)") }
        && model.lines.contains { $0.contains("]") }, "the cursor's value: \(comment)")
    #expect(model.lastColumnUnused, "no line reaches the last column: \(comment)")
    #expect(!model.scrolled, "nothing scrolled the frame: \(comment)")
  }

  @Test(
    "the quiz fits each terminal size, and the cursor's value is always shown",
    arguments: [
      (120, 40), (80, 24), (50, 20), (40, 24),
    ])
  func fitsEachSize(size: (Int, Int)) throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let session = try Session(deck, ["mbti", "quiz"], columns: size.0, rows: size.1)
    try session.pty.expect("Page 1 of 4")
    try session.pty.expect("0 of 24 answered")
    expectWholeFrame(session.screen(), page: 1, answered: 0, cursor: 3, "fresh")
    session.pty.send("4")
    try session.pty.expect("1 of 24 answered")
    session.pty.send("\u{1B}[C\u{1B}[C")  // → → : the cursor on 5
    let model = session.screen()
    expectWholeFrame(model, page: 1, answered: 1, cursor: 5, "cursor moved")
    #expect(model.text.contains("Strongly Agree"), "the cursor's label: \(model.text)")
    // Next with gaps: the status and the highlight fit too.
    session.pty.send("n")
    try session.pty.expect("not answered yet")
    expectWholeFrame(session.screen(), page: 1, answered: 1, cursor: 3, "a gap")
    // The quit question wraps instead of scrolling the frame.
    session.pty.send("q")
    try session.pty.expect("Quit?")
    expectWholeFrame(session.screen(), page: 1, answered: 1, cursor: 3, "quitting")
    session.pty.send("k")
    #expect(try session.pty.waitForExit() == 130)
  }

  @Test("30×10 asks for a bigger terminal; resizing mid-quiz redraws a whole frame at each size")
  func resizeMidQuiz() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let session = try Session(deck, ["mbti", "quiz"], columns: 30, rows: 10)
    try session.pty.expect("Make the terminal")
    var model = session.screen()
    #expect(model.flat.contains("Make the terminal at least 40×12 for the quiz (it is 30×10)."), "\(model.text)")
    #expect(model.lastColumnUnused && !model.scrolled, "\(model.text)")
    // Keys that would answer unseen questions do nothing while it is too small.
    session.pty.send("5")
    session.resize(columns: 80, rows: 24)
    try session.pty.expect("Page 1 of 4")
    expectWholeFrame(session.screen(), page: 1, answered: 0, cursor: 3, "80×24 after 30×10")
    session.pty.send("44")
    try session.pty.expect("2 of 24 answered")
    session.resize(columns: 50, rows: 20)
    try session.pty.expect("MBTI quiz")
    expectWholeFrame(session.screen(), page: 1, answered: 2, cursor: 3, "resized to 50×20")
    session.resize(columns: 40, rows: 24)
    try session.pty.expect("MBTI quiz")
    expectWholeFrame(session.screen(), page: 1, answered: 2, cursor: 3, "resized to 40×24")
    session.resize(columns: 30, rows: 10)
    try session.pty.expect("Make the terminal")
    model = session.screen()
    #expect(model.flat.contains("(it is 30×10)"), "\(model.text)")
    #expect(model.lastColumnUnused && !model.scrolled, "\(model.text)")
    session.resize(columns: 120, rows: 40)
    try session.pty.expect("MBTI quiz")
    model = session.screen()
    expectWholeFrame(model, page: 1, answered: 2, cursor: 3, "resized to 120×40")
    #expect(model.text.contains("● 4 Agree"), "the answers are kept: \(model.text)")
    session.pty.send("\u{03}")
    try session.pty.expect("k keeps your answers")
    session.pty.send("k")
    #expect(try session.pty.waitForExit() == 130)
  }
}
