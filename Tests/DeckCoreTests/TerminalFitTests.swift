import Synchronization
import Testing

@testable import DeckCore

/// Issue 45 (the guard): what deck prints for a person fits the terminal. Tables wrap their
/// widest column or become records, key-value lines and messages wrap under themselves, usage
/// lines wrap between options; nothing is cut, and nothing changes in a pipe.
@Suite("Fitting output to the terminal")
struct TerminalFitTests {
  final class Captured: Sendable {
    let out = Mutex("")
    let err = Mutex("")
  }

  func output(columns: Int?) -> (Output, Captured) {
    let captured = Captured()
    let output = Output(
      stdoutIsTerminal: columns != nil, stderrIsTerminal: columns != nil, colorEnabled: false, columns: columns,
      messageColumns: columns, writeOut: { text in captured.out.withLock { $0 += text } },
      writeErr: { text in captured.err.withLock { $0 += text } })
    return (output, captured)
  }

  func widest(_ text: String) -> Int {
    text.split(separator: "\n").map { TextLayout.displayWidth(String($0)) }.max() ?? 0
  }

  static let headers = ["NAME", "ID"]
  static let rows = [
    ["Keller Williams Realty Boston Northwest", "6a83db2f-a5df-5bbe-a98b-7c74bf55aa3e"],
    ["Compass", "41558fda-b401-5193-bda2-18f052e49079"],
  ]

  @Test func aTableThatFitsIsAlignedAsBefore() {
    let (output, captured) = output(columns: 120)
    output.table(Self.headers, Self.rows)
    let lines = captured.out.withLock { $0 }.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines[2] == "Compass" + String(repeating: " ", count: Self.rows[0][0].count - 7 + 2) + Self.rows[1][1])
  }

  @Test func inAPipeNothingIsFitted() {
    let (output, captured) = output(columns: nil)
    output.table(Self.headers, Self.rows)
    output.fields([("stored in", String(repeating: "x ", count: 80))])
    output.info(String(repeating: "word ", count: 40))
    #expect(captured.out.withLock { $0 }.split(separator: "\n").count == 4)
    #expect(captured.err.withLock { $0 }.split(separator: "\n").count == 1)
  }

  @Test func aTooWideTableWithTextWrapsItsWidestColumn() {
    let layout = TableLayout(
      headers: ["ID", "TAGS", "TITLE"],
      rows: [
        ["brokerage-9.4", "writes", "While brokerage search fails, onboarding still completes with the typed name"]
      ],
      columns: 60)
    #expect(layout.shape == .wrapped(column: 2, width: 37))
    let lines = layout.lines(header: { $0 }, label: { $0 }, cell: { $3 })
    #expect(lines.allSatisfy { TextLayout.displayWidth($0) <= 60 })
    #expect(lines[1].hasPrefix("brokerage-9.4  writes  While brokerage search"))
    #expect(lines[2].hasPrefix("                       "))
    #expect(lines.last?.hasSuffix(" typed name") == true)
  }

  @Test func aTableThatCannotWrapBecomesRecordsWithEveryIdWhole() {
    let (output, captured) = output(columns: 40)
    output.table(Self.headers, Self.rows)
    let text = captured.out.withLock { $0 }
    #expect(widest(text) <= 40, "\(text)")
    #expect(text.contains("6a83db2f-a5df-5bbe-a98b-7c74bf55aa3e"))
    #expect(text.contains("NAME  Keller Williams Realty Boston\n      Northwest\n"), "\(text)")
    #expect(text.contains("\n\nNAME  Compass\n"), "records are apart by a blank line: \(text)")
  }

  @Test func aLongValueWrapsUnderItselfOrGoesBelowItsKey() {
    let (output, captured) = output(columns: 40)
    output.fields([
      ("account", "athlete@sandbox.test (active) since yesterday"),
      ("stored in", "/tmp/deck-e2e-B38B26A2-548F-4B76/config/deck/tokens.json"),
    ])
    let text = captured.out.withLock { $0 }
    #expect(text.hasPrefix("account    athlete@sandbox.test (active)\n           since yesterday\n"), "\(text)")
    #expect(text.contains("stored in\n/tmp/deck-e2e-B38B26A2-548F-4B76/config/deck/tokens.json\n"), "\(text)")
  }

  @Test func messagesWrapAtWordsAndTheErrorPrefixStays() {
    let (output, captured) = output(columns: 30)
    output.error("The environment staging has no URL for the service auth.")
    let text = captured.err.withLock { $0 }
    #expect(text.hasPrefix("error: The environment staging\n"), "\(text)")
    #expect(widest(text) <= 30)
    #expect(text.replacingOccurrences(of: "\n", with: " ").contains("for the service auth."))
  }

  @Test func usageLinesWrapBetweenOptions() {
    let usage =
      "USAGE: deck workspace subscribe [global options] [--plan <plan>] [--currency <currency>] [--wait-timeout <seconds>]"
    let lines = HelpText.fitting(usage, columns: 40).split(separator: "\n").map(String.init)
    #expect(lines.allSatisfy { TextLayout.displayWidth($0) <= 40 }, "\(lines)")
    #expect(lines[0] == "USAGE: deck workspace subscribe")
    #expect(lines.contains("       [--currency <currency>]"))
    #expect(lines.contains("       [--wait-timeout <seconds>]"))
    #expect(HelpText.fitting(usage, columns: nil) == usage)
  }
}
