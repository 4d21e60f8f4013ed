import DeckCore
import Synchronization
import Testing

/// Issue 45 (1): deck's colours reach the terminal as colours, never as visible `[1m` text, and
/// table widths are those of the visible text.
@Suite("Styled output")
struct StyledOutputTests {
  final class Captured: Sendable {
    let text = Mutex("")
  }

  func output(color: Bool) -> (Output, Captured) {
    let captured = Captured()
    let output = Output(
      stdoutIsTerminal: true, stderrIsTerminal: true, colorEnabled: color,
      writeOut: { text in captured.text.withLock { $0 += text } }, writeErr: { _ in })
    return (output, captured)
  }

  /// `[` digits `m` with no ESC before it: what a person sees when the ESC was stripped.
  func hasRemnant(_ text: String) -> Bool {
    let scalars = Array(text.unicodeScalars)
    for (index, scalar) in scalars.enumerated() where scalar == "[" && (index == 0 || scalars[index - 1] != "\u{1B}") {
      var end = index + 1
      while end < scalars.count, ("0"..."9").contains(scalars[end]) || scalars[end] == ";" { end += 1 }
      if end > index + 1, end < scalars.count, scalars[end] == "m" { return true }
    }
    return false
  }

  @Test func styledLinesKeepDecksColoursAndDropEverythingElse() {
    let (output, captured) = output(color: true)
    output.styledLines([output.style("Summary", .bold), "  " + output.style("✓", .green) + " coaches\u{07}\u{1B}]0;x"])
    let text = captured.text.withLock { $0 }
    #expect(text.contains("\u{1B}[1mSummary\u{1B}[0m"))
    #expect(text.contains("\u{1B}[32m✓\u{1B}[0m coaches"))
    #expect(!text.contains("\u{07}"))
    #expect(!text.contains("\u{1B}]"))
    #expect(!hasRemnant(text))
    // What `line` does to the same text: the bug's remnants.
    let (plain, plainCaptured) = self.output(color: true)
    plain.line(plain.style("Summary", .bold))
    #expect(hasRemnant(plainCaptured.text.withLock { $0 }))
  }

  @Test func aStyledCellIsPaddedByItsVisibleWidth() {
    let (output, captured) = output(color: true)
    output.table(
      ["A", "FLAG", "ID"], [["1", "dealbreaker", "x"], ["2", "", "y"]],
      cellStyle: { _, column, text in column == 1 && !text.isEmpty ? .yellow : nil })
    let lines = captured.text.withLock { $0 }.split(separator: "\n").map(String.init)
    #expect(lines[1] == "1  \u{1B}[33mdealbreaker\u{1B}[0m  x")
    #expect(lines[2] == "2  " + String(repeating: " ", count: 11) + "  y")
    // Without colour the same table has no escape at all.
    let (plain, plainCaptured) = self.output(color: false)
    plain.table(["A", "FLAG", "ID"], [["1", "dealbreaker", "x"]], cellStyle: { _, _, _ in .yellow })
    #expect(plainCaptured.text.withLock { $0 } == "A  FLAG         ID\n1  dealbreaker  x\n")
  }
}
