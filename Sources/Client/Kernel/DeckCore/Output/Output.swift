import DeckSupport
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command's output goes: stdout for data, stderr for messages, errors and traces.
/// Colour only on a terminal, and never when `NO_COLOR` is set.
///
/// Text goes out without control characters (`TerminalText`): `line`, `info`, `error`,
/// `trace`, `table` and `fields` strip them from everything they are given, because what a
/// command prints so often holds text from a server (questions, names, URLs, bodies). deck's
/// own colours are added after that (`line(_:style:)`, the table header, the error prefix).
/// Only `writeOut`/`writeErr` are raw, for terminal UIs that draw escape sequences
/// themselves (they lay server text out through `TextLayout`, which strips it too).
///
/// A command prints its result with `emit(_:table:)` (Output+Emit.swift), which renders it in
/// the format the command line asked for (`--format`, `--json`, `--jq`).
public struct Output: Sendable {
  public let stdoutIsTerminal: Bool
  public let stderrIsTerminal: Bool
  public let colorEnabled: Bool
  /// How results are printed (`table` unless the command line says otherwise).
  public let format: OutputFormat
  /// `--jq`: the filter JSON results go through.
  public let jq: JQFilter?
  /// `--csv-raw`: CSV cells that look like formulas are written as they are (CSVText).
  public let csvRaw: Bool
  /// The terminal's width when stdout is a terminal: tables and key-value lines are laid out
  /// to fit it (Output+Fit.swift). nil in a pipe or a file, where lines are never broken.
  public let columns: Int?
  /// The same for stderr: messages (`info`, `error`) wrap at word boundaries to it.
  public let messageColumns: Int?
  /// Raw writes, for terminal UIs that manage lines themselves: nothing is stripped.
  public let writeOut: @Sendable (String) -> Void
  public let writeErr: @Sendable (String) -> Void

  public init(
    stdoutIsTerminal: Bool, stderrIsTerminal: Bool, colorEnabled: Bool, format: OutputFormat = .table,
    jq: JQFilter? = nil, csvRaw: Bool = false, columns: Int? = nil, messageColumns: Int? = nil,
    writeOut: @escaping @Sendable (String) -> Void, writeErr: @escaping @Sendable (String) -> Void
  ) {
    self.csvRaw = csvRaw
    self.columns = columns
    self.messageColumns = messageColumns
    self.stdoutIsTerminal = stdoutIsTerminal
    self.stderrIsTerminal = stderrIsTerminal
    self.colorEnabled = colorEnabled
    self.format = jq == nil ? format : .json
    self.jq = jq
    self.writeOut = writeOut
    self.writeErr = writeErr
  }

  /// The process's own stdout and stderr. A file size limit (`ulimit -f`) makes a write fail
  /// with EFBIG, reported as any failed write is, rather than kill deck with SIGXFSZ.
  public static func standard(environment: [String: String]) -> Output {
    signal(SIGXFSZ, SIG_IGN)
    let outTTY = isatty(1) == 1
    let errTTY = isatty(2) == 1
    let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
    let dumb = environment["TERM"] == "dumb"
    return Output(
      stdoutIsTerminal: outTTY, stderrIsTerminal: errTTY, colorEnabled: outTTY && !noColor && !dumb,
      columns: outTTY ? terminalColumns(environment: environment, fd: 1) : nil,
      messageColumns: errTTY ? terminalColumns(environment: environment, fd: 2) : nil, writeOut: { writeAll(1, $0) },
      writeErr: { writeAll(2, $0) })
  }

  /// Text to the process's stdout as `standard`'s writes it (a failed write ends deck with
  /// exit 1), for commands that print without an `Output`.
  public static func writeStdout(_ text: String) { writeAll(1, text) }

  /// The same streams with colour off (script mode).
  public func withoutColor() -> Output {
    Output(
      stdoutIsTerminal: stdoutIsTerminal, stderrIsTerminal: stderrIsTerminal, colorEnabled: false, format: format,
      jq: jq, csvRaw: csvRaw, columns: columns, messageColumns: messageColumns, writeOut: writeOut, writeErr: writeErr)
  }

  /// The same, with nothing written to stderr: a shell's completion callback, whose stderr is
  /// the user's terminal in the middle of a prompt (its answer is its stdout alone).
  public func withoutStderr() -> Output {
    Output(
      stdoutIsTerminal: stdoutIsTerminal, stderrIsTerminal: false, colorEnabled: colorEnabled, format: format,
      jq: jq, csvRaw: csvRaw, columns: columns, messageColumns: messageColumns, writeOut: writeOut, writeErr: { _ in })
  }

  /// The same, with stdout given to `sink` (no terminal there, so no colour).
  public func capturingStdout(_ sink: @escaping @Sendable (String) -> Void) -> Output {
    Output(
      stdoutIsTerminal: false, stderrIsTerminal: stderrIsTerminal, colorEnabled: false, format: format, jq: jq,
      csvRaw: csvRaw, messageColumns: messageColumns, writeOut: sink, writeErr: writeErr)
  }

  /// The same streams, printing results in `format` (through `jq`, if given, which implies JSON;
  /// CSV cells as they are with `csvRaw`).
  public func formatted(_ format: OutputFormat, jq: JQFilter? = nil, csvRaw: Bool = false) -> Output {
    Output(
      stdoutIsTerminal: stdoutIsTerminal, stderrIsTerminal: stderrIsTerminal, colorEnabled: colorEnabled,
      format: format, jq: jq, csvRaw: csvRaw, columns: columns, messageColumns: messageColumns, writeOut: writeOut,
      writeErr: writeErr)
  }

  /// A line of data on stdout, without control characters (line breaks and tabs are kept).
  public func line(_ text: String = "") { writeOut(Self.plain(text) + "\n") }

  /// A line of data on stdout in one of deck's styles (bold on a terminal).
  public func line(_ text: String, style: Style) { writeOut(self.style(Self.plain(text), style) + "\n") }

  /// Lines deck composed itself on stdout: the data in them sanitized first
  /// (`TerminalText.sanitize`), then styled with ``style(_:_:)``. Style after sanitising, never
  /// before: deck's colour sequences are kept here, and any other control character goes, as in
  /// ``line(_:)`` (which would strip the colours' ESC and leave `[1m` on the screen).
  public func styledLines(_ lines: [String]) {
    writeOut(lines.map(TerminalText.sanitizeKeepingColors).joined(separator: "\n") + "\n")
  }

  /// A message for the person at the terminal, on stderr (keeps stdout clean for pipes).
  /// On a terminal, a line wider than it wraps at word boundaries, under its own indentation.
  public func info(_ text: String) { writeErr(TextLayout.wrapLines(Self.plain(text), columns: messageColumns) + "\n") }

  /// A message deck composed itself on stderr, styled after its data was sanitized (see
  /// ``styledLines(_:)``).
  public func styledInfo(_ text: String) { writeErr(TerminalText.sanitizeKeepingColors(text) + "\n") }

  /// `error: text` on stderr (the prefix red on a terminal, after the text is wrapped as
  /// ``info(_:)`` wraps it).
  public func error(_ text: String) {
    let wrapped = TextLayout.wrapLines("error: " + Self.plain(text), columns: messageColumns)
    let colored = stderrIsTerminal && colorEnabled ? "\u{1B}[31merror:\u{1B}[0m" : "error:"
    writeErr(colored + wrapped.dropFirst("error:".count) + "\n")
  }

  /// A `--trace` line: requests, headers and bodies as the server sent them, less control characters.
  public func trace(_ text: String) { writeErr(Self.plain(text) + "\n") }

  /// Text as it may reach a terminal: no control characters but line breaks and tabs.
  static func plain(_ text: String) -> String { TerminalText.sanitize(text, keepNewlines: true) }

  /// An aligned table; the header is bold on a terminal, where a table wider than the terminal
  /// is fitted to it (``TableLayout``). Cells are shown without control characters: they
  /// usually hold values from a server. `cellStyle` styles a cell (by row, column and text)
  /// after it is sanitized and its width measured, so widths are those of the visible text.
  public func table(
    _ headers: [String], _ rows: [[String]],
    cellStyle: (_ row: Int, _ column: Int, _ text: String) -> Style? = {
      _, _, _ in nil
    }
  ) {
    let rows = rows.map { $0.map { TerminalText.sanitize($0) } }
    let lines = TableLayout(headers: headers, rows: rows, columns: columns).lines(
      header: { style($0, .bold) }, label: { style($0, .dim) },
      cell: { row, column, text, shown in cellStyle(row, column, text).map { style(shown, $0) } ?? shown })
    writeOut(lines.map { $0 + "\n" }.joined())
  }

  /// Key-value lines, keys aligned; on a terminal a long value wraps under itself.
  public func fields(_ pairs: [(String, String)]) {
    let pairs = pairs.map { ($0.0, TerminalText.sanitize($0.1)) }
    let width = pairs.map { TextLayout.displayWidth($0.0) }.max() ?? 0
    var lines: [String] = []
    for (key, value) in pairs {
      let label = style(key + String(repeating: " ", count: width - TextLayout.displayWidth(key)), .dim)
      lines += TextLayout.hanging(value, after: label, indent: width + 2, columns: columns)
    }
    writeOut(lines.map { $0 + "\n" }.joined())
  }

  public enum Style: String, Sendable {
    case bold = "1"
    case dim = "2"
    case red = "31"
    case green = "32"
    case yellow = "33"
    case cyan = "36"
  }

  public func style(_ text: String, _ style: Style) -> String {
    colorEnabled ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
  }
}

/// Writes all of `text` to `fd`. On stdout, a write that fails (a full disk, `/dev/full`, a
/// file size limit) or writes nothing ends deck with a message on stderr and exit 1: the output
/// is incomplete, and a script must not take it for a success. A closed pipe (EPIPE) ends it as
/// quietly as before: `deck … | head -1` is not an error.
private func writeAll(_ fd: Int32, _ text: String) {
  var bytes = Array(text.utf8)
  var offset = 0
  while offset < bytes.count {
    let written = bytes.withUnsafeMutableBytes { buffer in
      buffer.baseAddress.map { write(fd, $0 + offset, buffer.count - offset) } ?? 0
    }
    if written < 0, errno == EINTR { continue }
    if written <= 0 {
      let code = written < 0 ? errno : ENOSPC
      guard fd == 1, code != EPIPE else { return }
      StdoutFailure.exit(errno: code)
    }
    offset += written
  }
  bytes.removeAll()
}

/// A failed write to stdout: the message, and the exit.
enum StdoutFailure {
  static func message(errno code: Int32) -> String {
    "error: cannot write the output to stdout: \(String(cString: strerror(code))); the output is incomplete. Check the disk or file it goes to.\n"
  }

  static func exit(errno code: Int32) -> Never {
    let message = Array(message(errno: code).utf8)
    _ = message.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    #if canImport(Glibc)
      Glibc.exit(ExitCode.failure)
    #else
      Darwin.exit(ExitCode.failure)
    #endif
  }
}
