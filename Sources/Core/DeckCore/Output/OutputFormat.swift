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
