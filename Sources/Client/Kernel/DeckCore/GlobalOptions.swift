import ArgumentParser

/// The options every deck command takes. Commands declare them with
/// `@OptionGroup var global: GlobalOptions`, so they work before or after the subcommand.
///
/// Their names are spelled out (`.customLong`) rather than derived from the property (`.long`):
/// argument-parser derives a name again at every parse, and a script parses these on every
/// line (bench/README.md).
public struct GlobalOptions: ParsableArguments, Sendable {
  @Option(
    name: .customLong("env"), help: "The environment to use (overrides DECK_ENV and the config file).",
    completion: .custom { _, _, prefix in EnvironmentCompletion.names(prefix: prefix) })
  public var env: String?

  @Flag(name: .customLong("json"), help: "Short for --format json.")
  public var json = false

  @Option(
    name: .customLong("format"),
    help: ArgumentHelp(
      "How to print the result: table (the default), json, yaml or csv. Errors always go to stderr.",
      valueName: "format"))
  public var format: OutputFormat?

  /// Compiled as it is parsed: a bad expression is a usage error before anything is sent.
  @Option(
    name: .customLong("jq"),
    help: ArgumentHelp(
      "Filter the JSON result with a jq expression (implies --format json); strings print raw, as jq -r does.",
      valueName: "expression"),
    transform: { expression in try JQFilter(expression) })
  public var jq: JQFilter?

  @Flag(
    name: .customLong("csv-raw"),
    help:
      "With --format csv, write text that starts with =, +, -, @, a tab or CR as it is (by default it gets a leading ' so that spreadsheets do not run it as a formula)."
  )
  public var csvRaw = false

  @Flag(
    name: .customLong("trace"),
    help:
      "Trace each HTTP request to stderr: method, URL, status, time. --trace=body adds headers and bodies (secrets redacted)."
  )
  public var trace = false

  /// `--trace=body`, rewritten by `LineParser.normalize` into this hidden flag.
  @Flag(name: .customLong("trace-body"), help: .hidden)
  public var traceBody = false

  @Option(
    name: .customLong("timeout"), help: ArgumentHelp("Seconds to wait for each HTTP request.", valueName: "seconds"))
  public var timeout: Double = 30

  public init() {}

  /// The options as parsed from no arguments (property-wrapper defaults need parsing).
  public static var defaults: GlobalOptions {
    // Parsing no arguments cannot fail: every option has a default.
    (try? parse([])) ?? GlobalOptions()
  }

  /// The format results are printed in: `--format`, or json for `--json` and `--jq`.
  public var outputFormat: OutputFormat {
    json || jq != nil ? .json : format ?? .table
  }

  public mutating func validate() throws {
    guard timeout > 0, timeout <= 3600 else {
      throw ValidationError("--timeout must be between 0 and 3600 seconds, got \(timeout).")
    }
    if let format, format != .json {
      if json {
        throw ValidationError("--json is short for --format json; it cannot go with --format \(format.rawValue).")
      }
      if jq != nil { throw ValidationError("--jq filters JSON; it cannot go with --format \(format.rawValue).") }
    }
  }
}
