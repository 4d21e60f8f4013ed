/// A QA scenario: deck lines to run against an environment, and what each must do
/// (docs/QA.md). Plain values, parsed from YAML by ``ScenarioParser``.
public struct Scenario: Sendable, Equatable {
  public enum Tag: String, Sendable, CaseIterable, Comparable {
    /// Never changes state.
    case readonly
    /// Changes state: refused against a production environment unless `--allow-writes`.
    case writes
    /// Needs the sandbox's operator endpoints: skipped elsewhere.
    case sandbox
    /// Changes what the whole environment does (fault rules, delays): runs alone.
    case exclusive

    public static func < (lhs: Tag, rhs: Tag) -> Bool {
      allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
  }

  /// A value made fresh for each run of the scenario.
  public enum Generator: String, Sendable, CaseIterable {
    /// A unique address at example.test.
    case email
    /// A random UUID.
    case uuid
    /// A short unique token: lowercase letters and digits.
    case unique
  }

  public var id: String
  public var title: String
  public var module: String
  /// Spec rows covered besides ``id``.
  public var covers: [String]
  public var tags: Set<Tag>
  public var generate: [(name: String, generator: Generator)]
  public var vars: [(name: String, value: String)]
  /// Variables read from the caller's environment (`from-env: {password: QA_PASSWORD}`): an
  /// account's credentials for a real environment, kept out of the file. Always redacted.
  public var fromEnvironment: [(name: String, variable: String)] = []
  public var steps: [Step]
  /// The file it was read from (a path, or `module/name.yaml` for the ones deck ships) and its line.
  public var file: String
  public var line: Int
  /// Whether deck ships it (`file` is then the name `deck qa show` and `deck qa export` use).
  public var shipped = false
  /// The row of `qa run --data` this run of the scenario takes its variables from.
  public var data: DataRow?

  /// A row of a `--data` file: the scenario's own id, the file, the row's number (1 is the
  /// first row of values) and its line there.
  public struct DataRow: Sendable, Equatable {
    public var base: String
    public var file: String
    public var row: Int
    public var line: Int
  }

  /// The spec rows it covers: its own id (without a data row's suffix) and ``covers``.
  public var rows: [String] { [data?.base ?? id] + covers }

  /// Where a person finds it: `path:line` for a user's file; for a shipped one, its name and
  /// the command that prints it (`prefs/school.yaml:12 (deck qa show prefs-5.edge.3)`), as
  /// an installed deck has no source tree. A data row adds its place in the data file.
  public var place: String {
    var text = "\(file):\(line)"
    if shipped { text += " (deck qa show \(data?.base ?? id))" }
    if let data { text += ", data row \(data.row) (\(data.file):\(data.line))" }
    return text
  }

  public static func == (lhs: Scenario, rhs: Scenario) -> Bool {
    lhs.id == rhs.id && lhs.title == rhs.title && lhs.module == rhs.module && lhs.covers == rhs.covers
      && lhs.tags == rhs.tags && lhs.generate.map(\.name) == rhs.generate.map(\.name)
      && lhs.generate.map(\.generator) == rhs.generate.map(\.generator) && lhs.vars.map(\.name) == rhs.vars.map(\.name)
      && lhs.vars.map(\.value) == rhs.vars.map(\.value)
      && lhs.fromEnvironment.map(\.name) == rhs.fromEnvironment.map(\.name)
      && lhs.fromEnvironment.map(\.variable) == rhs.fromEnvironment.map(\.variable) && lhs.steps == rhs.steps
      && lhs.file == rhs.file
      && lhs.line == rhs.line && lhs.shipped == rhs.shipped && lhs.data == rhs.data
  }
}

/// One step: a deck line, its input, and its expectations.
public struct Step: Sendable, Equatable {
  public var run: String
  public var stdin: String?
  /// Seconds before the step is stopped (an error).
  public var timeout: Double
  /// Runs even after an earlier step failed.
  public var always: Bool
  public var expect: Expectation
  /// Variables set from the step's JSON output: name and jq expression.
  public var captures: [Capture]
  /// Where it is in its file.
  public var line: Int
  /// What a person types, when the step runs on a terminal of its own (empty: it runs with
  /// its output in files, its input from ``stdin``).
  public var keys: [KeyExchange] = []

  public static let defaultTimeout = 30.0

  /// One exchange with a step on a terminal: wait until the screen shows `wait` (after what
  /// the exchanges before matched), then type `send`. Either may be absent.
  public struct KeyExchange: Sendable, Equatable {
    public var wait: String?
    public var send: String?
    /// Where it is written, for an error about it.
    public var line = 0
  }

  public struct Capture: Sendable, Equatable {
    public var name: String
    public var expression: String
    /// Where it is written (line, field), for an error about it.
    public var line = 0
    public var field = ""
  }
}

/// What a step must do.
public struct Expectation: Sendable, Equatable {
  public var exit: Int32 = 0
  public var stdout: [TextCheck] = []
  public var stderr: [TextCheck] = []
  public var jq: [JQCheck] = []

  public enum TextCheck: Sendable, Equatable {
    case contains(String)
    case notContains(String)
    case equals(String)
    /// A regular expression that must match somewhere.
    case matches(String)
  }

  /// A jq expression on the step's JSON output: it must give `true`, or, with `equals`, a
  /// value equal (as jq compares) to this JSON text.
  public struct JQCheck: Sendable, Equatable {
    public var expression: String
    public var equals: String?
    /// Where it is written (line, field), for an error about it.
    public var line = 0
    public var field = ""
  }
}
