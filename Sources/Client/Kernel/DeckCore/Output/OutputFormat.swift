import ArgumentParser

/// How a command prints its result (`--format`; `--json` is short for `--format json`).
public enum OutputFormat: String, CaseIterable, Sendable, ExpressibleByArgument {
  /// For a person: aligned tables, fields and messages (the default).
  case table
  /// The result's data as one JSON document (indented on a terminal, one line otherwise).
  case json
  /// The same data as YAML.
  case yaml
  /// The same data as CSV (RFC 4180 quoting) with a header row: a list of records gives a
  /// row per record and a column per field; one record gives `field,value` rows.
  case csv
}

extension OutputFormat {
  /// The values, as argument-parser's default gives them (each raw value), without its generic
  /// key path: `--format` is in every command's options, so this runs for every line a
  /// script parses.
  public static var allValueStrings: [String] { allCases.map { $0.rawValue } }

  /// No value has a description of its own (argument-parser's default finds none, the slow way).
  public static var allValueDescriptions: [String: String] { [:] }
}
