import DeckCore
import DeckSupport
import FoundationEssentials

/// A scenario's variables: generated values, fixed ones, the built-in `ENV`, `SCENARIO` and
/// `WORKDIR`, and captures as the steps set them.
public enum ScenarioVariables {
  /// Names deck sets itself.
  public static let builtIn: Set<String> = ["ENV", "SCENARIO", "WORKDIR"]

  /// The values a run of `scenario` starts with. `token` makes generated values unique;
  /// `workDirectory` is the scenario's own directory for the files its steps write.
  public static func initial(
    for scenario: Scenario, environment: String, processEnvironment: [String: String] = [:],
    workDirectory: String = "", token: () -> String
  ) -> [String: String] {
    var values = ["ENV": environment, "SCENARIO": scenario.id, "WORKDIR": workDirectory]
    for (name, variable) in scenario.fromEnvironment {
      values[name] = processEnvironment[variable]
    }
    for (name, generator) in scenario.generate {
      switch generator {
      case .email: values[name] = "qa-\(token())@example.test"
      case .uuid: values[name] = UUID().uuidString.lowercased()
      case .unique: values[name] = token()
      }
    }
    for (name, value) in scenario.vars {
      values[name] = substitute(value) { values[$0] }
    }
    return values
  }

  /// A short token no other run shares: time and randomness, base 36.
  public static func uniqueToken() -> String {
    let time = UInt64(Date().timeIntervalSince1970 * 1000)
    return String(time, radix: 36) + String(UInt64.random(in: 0..<(36 * 36 * 36 * 36 * 36 * 36)), radix: 36)
  }

  /// `text` with every `${NAME}` replaced by `value(NAME)`; a name without a value stays as it
  /// was written. (`run` lines use ``ShellWords/expand(_:variables:)`` instead, which also
  /// knows `$NAME` and quotes.)
  public static func substitute(_ text: String, value: (String) -> String?) -> String {
    guard text.contains("${") else { return text }
    var result = ""
    var rest = Substring(text)
    while let open = rest.firstRange(of: "${") {
      result += rest[..<open.lowerBound]
      let after = rest[open.upperBound...]
      guard let close = after.firstIndex(of: "}") else {
        result += rest[open.lowerBound...]
        return result
      }
      let name = String(after[..<close])
      if let replacement = value(name) {
        result += replacement
      } else {
        result += rest[open.lowerBound...close]
      }
      rest = after[after.index(after: close)...]
    }
    return result + rest
  }

  /// The names of `${NAME}` references in `text` that have no value.
  public static func undefined(in text: String, values: [String: String]) -> [String] {
    var missing: [String] = []
    _ = substitute(text) { name in
      if values[name] == nil { missing.append(name) }
      return values[name]
    }
    return missing
  }
}

/// jq expectations and captures, on libjq through deck's own `--jq` filter. Compiling a jq
/// program is slow (libjq binds its builtins each time; bench/README.md), so a step's expectations
/// are checked by one program, and a file's expressions are validated by one compile; each
/// expression alone is compiled only to say which one is wrong.
enum JQCheckRunner {
  /// The results of `expression` on `json`, one line each (strings raw, as `jq -r`), or jq's
  /// error.
  static func evaluate(_ expression: String, on json: Data) -> (lines: [String], error: String?) {
    do {
      let run = try JQFilter(expression, limits: .expectation).run(json)
      return (run.lines, run.error)
    } catch {
      return ([], error.message)
    }
  }

  /// An expression with each `${NAME}` as `0`, which is valid jq inside a string and out.
  static func placeholder(_ expression: String) -> String {
    ScenarioVariables.substitute(expression) { _ in "0" }
  }

  /// Every jq expression of the scenarios must compile: a typo is a usage error (64) naming
  /// the file, line and field, found before anything runs.
  static func validate(_ scenarios: [Scenario]) throws {
    for scenario in scenarios { try checkDefined(scenario) }
    for (file, group) in Dictionary(grouping: scenarios, by: \.file).sorted(by: { $0.key < $1.key }) {
      let expressions: [(expression: String, line: Int, field: String)] = group.flatMap { scenario in
        scenario.steps.flatMap { step in
          step.expect.jq.map { ($0.expression, $0.line, $0.field) }
            + step.captures.map { ($0.expression, $0.line, $0.field) }
        }
      }
      guard !expressions.isEmpty else { continue }
      let combined = "[" + expressions.map { "(\(placeholder($0.expression))\n)" }.joined(separator: ", ") + "] | empty"
      if (try? JQFilter(combined)) != nil { continue }
      for item in expressions {
        do {
          _ = try JQFilter(placeholder(item.expression))
        } catch {
          throw DeckError.usage(
            "\(file):\(item.line): \(item.field): not a valid jq expression: \(error.message)",
            hint: "Fix the scenario file; docs/QA.md describes the format.")
        }
      }
    }
  }

  /// Every `${NAME}` in a jq expectation or capture names a variable that is set by then: by
  /// deck, the scenario (`generate`, `vars`, `from-env`, a `--data` column) or a capture of an
  /// earlier step (or of an earlier capture of the same step). A usage error (64) naming the
  /// file, line and field otherwise, found before anything runs.
  static func checkDefined(_ scenario: Scenario) throws {
    var defined = ScenarioVariables.builtIn.union(
      scenario.generate.map(\.name) + scenario.vars.map(\.name) + scenario.fromEnvironment.map(\.name))
    func check(_ text: String, line: Int, field: String) throws {
      var missing: String?
      _ = ScenarioVariables.substitute(text) { name in
        if !defined.contains(name), missing == nil { missing = name }
        return ""
      }
      guard let missing else { return }
      throw DeckError.usage(
        "\(scenario.file):\(line): \(field): ${\(missing)} is not defined",
        hint:
          "Set it under vars, generate or from-env, capture it in an earlier step, or give it as a column of qa run --data (docs/QA.md)."
      )
    }
    for step in scenario.steps {
      for item in step.expect.jq {
        try check(item.expression, line: item.line, field: item.field)
        if let equals = item.equals { try check(equals, line: item.line, field: item.field) }
      }
      for capture in step.captures {
        try check(capture.expression, line: capture.line, field: capture.field)
        defined.insert(capture.name)
      }
    }
  }
}
