import DeckSupport
import DeckValues
import FoundationEssentials
import Synchronization

/// The one output path for a command's result. A command hands over its data and says how a
/// person sees it; the format the command line asked for is chosen here, and nowhere else:
///
/// ```swift
/// try context.output.emit(results) {
///   context.output.table(["NAME", "ID"], results.map { [$0.name, $0.id] })
/// }
/// ```
///
/// `table` (the default) runs the closure: tables, fields, messages. `json`, `yaml` and `csv`
/// render the data (`DeckJSON`'s JSON, then YAML or CSV from it), and `--jq` filters the JSON.
extension Output {
  /// Whether results are shown for a person (`--format table`, the default). Progress and
  /// next-step messages go with it only; the other formats print the data and nothing else.
  public var isHuman: Bool { format == .table }

  /// Prints a command's result: `table` runs `table`, the other formats render `value`.
  public func emit<Value: Encodable>(_ value: Value, table: () throws -> Void) throws {
    guard isHuman else { return try render(value, stream: nil) }
    try table()
  }

  /// Prints a result whose human form is one message on stderr ("Switched to …").
  public func emit<Value: Encodable>(_ value: Value, message: String) throws {
    try emit(value) { info(message) }
  }

  /// A stream of results printed as they come (one per session of a scripted kiosk run).
  public func records() -> OutputRecords { OutputRecords(output: self) }

  /// The data in the chosen format; `stream` for one record of a stream.
  fileprivate func render<Value: Encodable>(_ value: Value, stream: OutputRecords?) throws {
    if let jq {
      // Results go out as they come, in writes of about 64 KB.
      var pending = ""
      let error = jq.run(
        try DeckJSON.compactEncoder.encode(value),
        emit: { line in
          pending += forStdout(line) + "\n"
          if pending.utf8.count >= 1 << 16 {
            writeOut(pending)
            pending = ""
          }
        },
        debug: { [writeErr] message in writeErr(Self.plain(message) + "\n") })
      if !pending.isEmpty { writeOut(pending) }
      if error == JQFilter.interrupted, Task.isCancelled { throw CancellationError() }
      if let error { throw DeckError(.failure, "jq: " + error) }
      return
    }
    switch format {
    case .table:
      return
    case .json:
      let encoder = stdoutIsTerminal && stream == nil ? DeckJSON.encoder : DeckJSON.compactEncoder
      let text = String(decoding: try encoder.encode(value), as: UTF8.self)
      // JSON escapes C0 controls itself; on a terminal, DEL and C1 (which it leaves raw) are
      // escaped too. The document means the same; piped, it is the encoder's, byte for byte.
      writeOut((stdoutIsTerminal ? TerminalText.escapingC1(inJSON: text) : text) + "\n")
    case .yaml:
      writeOut((stream == nil ? "" : "---\n") + (try YAMLText.render(value)))
    case .csv:
      let tree = try JSONValue(encoding: value)
      guard let stream else {
        return writeOut(CSVText.text(CSVText.table(tree, raw: csvRaw), forTerminal: stdoutIsTerminal))
      }
      writeOut(stream.csvLines(CSVText.fields(tree, raw: csvRaw)))
    }
  }

  /// Text from the data (a raw jq string) as it may reach stdout: on a terminal, without
  /// control characters.
  private func forStdout(_ text: String) -> String {
    stdoutIsTerminal ? TerminalText.sanitize(text, keepNewlines: true) : text
  }
}

/// Results printed one by one as they come: JSON Lines (one compact document per line, each
/// through `--jq`), YAML documents each after `---`, or CSV rows under one header (the first
/// record's columns), or for a person whatever `table` prints.
public final class OutputRecords: Sendable {
  let output: Output
  private let columns = Mutex<[String]?>(nil)

  init(output: Output) {
    self.output = output
  }

  /// Prints one record.
  public func emit<Value: Encodable>(_ value: Value, table: () throws -> Void) throws {
    guard output.isHuman else { return try output.render(value, stream: self) }
    try table()
  }

  /// A record as a CSV row; the first one's fields make the header, printed before it.
  fileprivate func csvLines(_ fields: [(key: String, cell: String)]) -> String {
    let forTerminal = output.stdoutIsTerminal
    return columns.withLock { columns in
      if let header = columns { return CSVText.line(CSVText.row(of: fields, in: header), forTerminal: forTerminal) }
      columns = fields.map(\.key)
      return CSVText.text(CSVText.records([fields]), forTerminal: forTerminal)
    }
  }
}
