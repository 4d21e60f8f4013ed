import DeckSupport
import Dispatch
import Foundation
import TestFixtures
import Testing

@testable import DeckCore

@Suite("Terminal kit: key decoding")
struct KeyDecoderTests {
  func keys(_ text: String) -> [Key] {
    var decoder = KeyDecoder()
    return decoder.decode(Array(text.utf8))
  }

  @Test("digits, letters and UTF-8 characters are characters")
  func characters() {
    #expect(
      keys("15aé€😀") == [
        .character("1"), .character("5"), .character("a"), .character("é"), .character("€"), .character("😀"),
      ])
  }

  @Test("Enter (CR or LF), Backspace (DEL or BS), Tab and Esc")
  func editingKeys() {
    #expect(keys("\r\n\u{7F}\u{8}\t") == [.enter, .enter, .backspace, .backspace, .tab])
    #expect(keys("\u{1B}") == [.escape])
    #expect(keys("\u{1B}x") == [.escape, .character("x")])
  }

  @Test("arrow keys in CSI and SS3 form, with or without parameters")
  func arrows() {
    #expect(keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
    #expect(keys("\u{1B}OA\u{1B}OD") == [.up, .left])
    #expect(keys("\u{1B}[1;5C") == [.right])
    // Other sequences (F-keys, Home) are consumed whole, not typed as characters.
    #expect(keys("\u{1B}[15~\u{1B}[Hx") == [.character("x")])
  }

  @Test("Ctrl and a letter")
  func controlKeys() {
    #expect(keys("\u{3}\u{12}\u{4}") == [.control("c"), .control("r"), .control("d")])
  }

  @Test("a sequence or character split across reads is finished by the next read")
  func splitAcrossReads() {
    var decoder = KeyDecoder()
    #expect(decoder.decode([0x1B, UInt8(ascii: "[")]) == [])
    #expect(decoder.decode([UInt8(ascii: "A"), UInt8(ascii: "1")]) == [.up, .character("1")])
    let euro = Array("€".utf8)
    #expect(decoder.decode(Array(euro.prefix(2))) == [])
    #expect(decoder.decode(Array(euro.suffix(1))) == [.character("€")])
  }

  @Test("garbage never traps and never grows without bound")
  func garbage() {
    var decoder = KeyDecoder()
    #expect(decoder.decode([0x80, 0xBF, 0xFF, 0xC3, 0x28]) == [.character("(")])
    // An escape sequence that never ends is dropped once it is too long to be a key.
    let endless = [0x1B, UInt8(ascii: "[")] + [UInt8](repeating: UInt8(ascii: "1"), count: 100)
    #expect(decoder.decode(endless) == [])
    #expect(decoder.decode(Array("x".utf8)) == [.character("x")])
  }
}

@Suite("Terminal kit: layout, frames and budgets")
struct TerminalLayoutTests {
  @Test("wrapping keeps words whole, cuts only words longer than the width")
  func wrap() {
    #expect(TextLayout.wrap("the quick brown fox", width: 9) == ["the quick", "brown fox"])
    #expect(TextLayout.wrap("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
    #expect(TextLayout.wrap("a\nb", width: 0) == ["a", "b"])
  }

  @Test("wrapped text (a server's question or message) loses its control characters")
  func wrapStripsControlCharacters() {
    #expect(
      TextLayout.wrap("a\u{1B}]0;title\u{07} b\u{1B}[2Jc\td\r", width: 40) == ["a]0;title b[2Jc d"])
    #expect(TextLayout.wrap("one\u{9B}31m\ntwo", width: 40) == ["one31m", "two"])
  }

  @Test("a frame keeps deck's colours and loses every other control character")
  func framesStripInjectedSequences() {
    final class Sink: @unchecked Sendable { var text: [String] = [] }
    let sink = Sink()
    let renderer = FrameRenderer { sink.text.append($0) }
    renderer.draw(
      ["\u{1B}[1mbold\u{1B}[0m \u{1B}[30;107mqr\u{1B}[0m", "x\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}[5;1Hy\u{9B}2Jz\tw"],
      columns: 40, rows: 3)
    let drawn = sink.text.joined()
    #expect(drawn.contains("\u{1B}[1;1H\u{1B}[1mbold\u{1B}[0m \u{1B}[30;107mqr\u{1B}[0m"), "colours kept")
    #expect(drawn.contains("\u{1B}[2;1Hx]0;pwned[2J[5;1Hy2Jz w\u{1B}[0m"), "\(drawn.debugDescription)")
    #expect(!drawn.contains("\u{07}"))
    #expect(!drawn.unicodeScalars.contains("\u{9B}"))
    #expect(TerminalText.sanitizeKeepingColors("\u{1B}[31") == "[31", "an unfinished sequence loses its ESC")
    #expect(TerminalText.sanitizeKeepingColors("plain") == "plain")
  }

  @Test("escape sequences take no columns")
  func visibleWidth() {
    #expect(TextLayout.visibleWidth("\u{1B}[1;31mred\u{1B}[0m") == 3)
    #expect(TextLayout.centred("ab", columns: 7) == "  ab")
  }

  @Test("display width: wide characters take two columns, combining marks none")
  func displayWidth() {
    #expect(TextLayout.displayWidth("abc") == 3)
    #expect(TextLayout.displayWidth("日本語") == 6)
    #expect(TextLayout.displayWidth("😀!") == 3)
    #expect(TextLayout.displayWidth("e\u{301}") == 1, "e and a combining acute accent")
    #expect(TextLayout.displayWidth("▶ ●○█░…×") == 8, "the quiz's glyphs are narrow")
    #expect(TextLayout.wrap("日本語のテキスト", width: 6) == ["日本語", "のテキ", "スト"])
  }

  @Test("a line that does not fit is cut with an ellipsis, its colours kept")
  func fit() {
    #expect(TextLayout.fit("short", width: 5) == "short")
    #expect(TextLayout.fit("too long a line", width: 8) == "too lon…")
    #expect(TextLayout.fit("\u{1B}[1mbold text\u{1B}[0m", width: 5) == "\u{1B}[1mbold\u{1B}[0m…")
    #expect(TextLayout.fit("日本語", width: 4) == "日…")
    #expect(TextLayout.displayWidth(TextLayout.fit("日本語日本語", width: 5)) <= 5)
    #expect(TextLayout.fit("abc", width: 0) == "")
  }

  @Test("hint items wrap between items, never inside one")
  func wrapItems() {
    #expect(
      TextLayout.wrapItems(["1-5 answer", "↑↓ question", "←→ and Enter choose", "q quit"], width: 30) == [
        "1-5 answer · ↑↓ question", "←→ and Enter choose · q quit",
      ])
    #expect(TextLayout.wrapItems(["a", "b"], width: 80) == ["a · b"])
  }

  @Test("below its minimum size a program says how big the terminal must be, in lines that fit")
  func tooSmall() {
    let lines = TextLayout.tooSmall(
      columns: 30, rows: 10, minimum: (40, 12), what: "the quiz", note: "q quits.")
    #expect(lines.joined(separator: " ").contains("Make the terminal at least 40×12 for the quiz (it is 30×10)."))
    #expect(lines.allSatisfy { TextLayout.displayWidth($0) <= 29 })
    #expect(TextLayout.tooSmall(columns: 10, rows: 2, minimum: (40, 12), what: "x", note: "y").count == 2)
  }

  @Test("a frame line wider than the terminal is cut, never wrapped")
  func framesCutWideLines() {
    final class Sink: @unchecked Sendable { var text: [String] = [] }
    let sink = Sink()
    let renderer = FrameRenderer { sink.text.append($0) }
    renderer.draw(["0123456789abcdef", "fits"], columns: 10, rows: 3)
    let drawn = sink.text.joined()
    #expect(drawn.contains("\u{1B}[1;1H012345678…\u{1B}[0m"), "\(drawn.debugDescription)")
    #expect(!drawn.contains("9abcdef"))
    #expect(drawn.contains("\u{1B}[2;1Hfits\u{1B}[0m"))
  }

  @Test("a frame rewrites only changed lines, everything after a resize, and clears lines that went away")
  func frames() {
    final class Sink: @unchecked Sendable { var text: [String] = [] }
    let sink = Sink()
    let renderer = FrameRenderer { sink.text.append($0) }
    renderer.draw(["one", "two"], columns: 10, rows: 5)
    #expect(sink.text.last?.hasPrefix("\u{1B}[H\u{1B}[2J") == true)
    renderer.draw(["one", "TWO"], columns: 10, rows: 5)
    #expect(sink.text.last == "\u{1B}[2;1HTWO\u{1B}[0m\u{1B}[K")
    renderer.draw(["one"], columns: 10, rows: 5)
    #expect(sink.text.last == "\u{1B}[2;1H\u{1B}[K")
    let count = sink.text.count
    renderer.draw(["one"], columns: 10, rows: 5)
    #expect(sink.text.count == count, "an unchanged frame writes nothing")
    renderer.draw(["one"], columns: 20, rows: 5)
    #expect(sink.text.last?.hasPrefix("\u{1B}[H\u{1B}[2J") == true)
  }

  /// Budgeted blocks its caller, as readline's completion callback does: call it from a thread
  /// of its own, never from the cooperative pool the work itself needs.
  func onThread<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
    await withCheckedContinuation { continuation in Thread { continuation.resume(returning: body()) }.start() }
  }

  @Test("budgeted work returns its value in time, and nil (cancelled) when it runs over or fails")
  func budget() async {
    // Generous where the work finishes at once: the cooperative pool may be busy with other tests.
    #expect(await onThread { Budgeted.run(within: .seconds(120)) { 42 } } == 42)
    // The caller is released at the budget, whatever the work does (timed on the caller's thread).
    let (late, elapsed) = await onThread { () -> (Int?, Duration) in
      let start = ContinuousClock.now
      let value: Int? = Budgeted.run(within: .milliseconds(50)) {
        try await Task.sleep(for: .seconds(10))
        return 1
      }
      return (value, ContinuousClock.now - start)
    }
    #expect(late == nil)
    #expect(elapsed < .seconds(2))
    let failed: Int? = await onThread {
      Budgeted.run(within: .seconds(120)) { () async throws -> Int in throw CancellationError() }
    }
    #expect(failed == nil)
  }

  @Test("durations convert to dispatch intervals without overflow")
  func durations() {
    #expect(DispatchTimeInterval(.milliseconds(300)) == .nanoseconds(300_000_000))
    #expect(DispatchTimeInterval(.seconds(Int64.max)) == .nanoseconds(86_400_000_000_000))
    #expect(DispatchTimeInterval(.seconds(-5)) == .nanoseconds(0))
  }

  @Test("yes/no answers")
  func yesNo() {
    #expect(Prompt.yesNo(" Y ", default: false) == true)
    #expect(Prompt.yesNo("no", default: true) == false)
    #expect(Prompt.yesNo("", default: true) == true)
    #expect(Prompt.yesNo("maybe", default: true) == nil)
  }
}

@Suite("Help texts")
struct HelpTextTests {
  @Test("discussions are reflowed into paragraphs; list and indented lines stay lines")
  func reflow() {
    let text = HelpText.discussion(
      """
      First paragraph wrapped
      at any width.

      - a list item
      - another
        continued code
      Last one.
      """, exits: [])
    #expect(
      text == """
        First paragraph wrapped at any width.

        - a list item
        - another
          continued code
        Last one.

        Exit codes:
          0    ok
        """)
  }

  @Test("reflowing keeps non-ASCII text whole and trims spaces and tabs only at line ends")
  func reflowEdges() {
    let text = "\t Résumé — first\t \nline 🚀  \n\n$ deck run x\n* starred\nwrapped item\n \t \n\n\nend"
    #expect(HelpText.reflow(text) == ["Résumé — first line 🚀", "$ deck run x\n* starred wrapped item", "end"])
    #expect(HelpText.reflow("") == [])
    #expect(HelpText.reflow("-not a list\nx") == ["-not a list x"])
    #expect(HelpText.reflow("  code\n  more\nafter\njoined") == ["  code\n  more\nafter joined"])
  }

  @Test("exit codes come from one table, sorted, with each command's own meanings")
  func exitCodes() {
    let text = HelpText.exitCodes([.unavailable(), .usage(), .failure("no such invite")])
    #expect(
      text == """
        Exit codes:
          0    ok
          1    no such invite
          64   usage error (nothing was sent)
          69   service unavailable
        """)
  }
}

@Suite("Terminal kit: the external editor")
struct ExternalEditorTests {
  @Test("VISUAL wins over EDITOR (not on a dumb terminal); vi is the fallback; blanks are unset")
  func choosesTheEditor() {
    #expect(ExternalEditor.command(in: ["VISUAL": "code --wait", "EDITOR": "nano"]) == "code --wait")
    #expect(ExternalEditor.command(in: ["VISUAL": "code --wait", "EDITOR": "nano", "TERM": "dumb"]) == "nano")
    #expect(ExternalEditor.command(in: ["VISUAL": "  ", "EDITOR": "nano"]) == "nano")
    #expect(ExternalEditor.command(in: [:]) == "vi")
  }

  @Test("runs a command with arguments through sh, on a path with spaces, and waits for it")
  func editsTheFile() async throws {
    let directory = NSTemporaryDirectory() + "deck-editor-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let file = directory + "/a file.yaml"
    try "gpa: 3.5\n".write(toFile: file, atomically: true, encoding: .utf8)
    let editor = ExternalEditor(
      command: "sleep 0.2; sed -i 's/3.5/3.9/'",
      environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
    try await editor.edit(file)
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "gpa: 3.9\n")
  }

  @Test("a failing or missing editor is an error naming it (exit 1)")
  func failures() async throws {
    let environment = ["PATH": "/usr/bin:/bin"]
    for (command, message) in [
      ("false", "The editor `false` exited with status 1."),
      ("no-such-editor-xyz", "The editor `no-such-editor-xyz` was not found."),
      ("kill -TERM $$", "The editor `kill -TERM $$` was stopped by signal 15."),
    ] {
      do {
        try await ExternalEditor(command: command, environment: environment).edit("/dev/null")
        Issue.record("\(command) succeeded")
      } catch let error as DeckError {
        #expect(error.message == message)
        #expect(error.exitCode == 1)
      }
    }
  }
}

@Suite("Process environment")
struct ProcessEnvironmentTests {
  @Test("read from environ, it is the dictionary Foundation gives")
  func matchesFoundation() {
    setenv("DECK_TEST_EQUALS", "a=b==c", 1)
    setenv("DECK_TEST_EMPTY", "", 1)
    defer {
      unsetenv("DECK_TEST_EQUALS")
      unsetenv("DECK_TEST_EMPTY")
    }
    let environment = ProcessEnvironment.current()
    #expect(environment == ProcessInfo.processInfo.environment)
    #expect(environment["DECK_TEST_EQUALS"] == "a=b==c")
    #expect(environment["DECK_TEST_EMPTY"] == "")
  }
}
