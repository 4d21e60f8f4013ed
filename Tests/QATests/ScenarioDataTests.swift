import DeckSupport
import Foundation
import Testing

@testable import DeckQA

/// `qa run --data`: CSV and YAML rows, a scenario run once per row with the columns as
/// variables, and errors that name the file and the line.
@Suite struct ScenarioDataTests {
  @Test func csvRowsAreReadAsRFC4180Says() throws {
    let text =
      "\u{FEFF}email,name , note\r\na@example.test,\"Keller, Williams\",\"say \"\"hi\"\"\"\r\n\nb@example.test,Compass,\"two\nlines\"\nc@example.test,,\n"
    let data = try ScenarioData.csv(text, file: "rows.csv")
    #expect(data.rows.map(\.line) == [2, 4, 6])
    #expect(data.rows[0].values.map(\.name) == ["email", "name", "note"])
    #expect(data.rows[0].values.map(\.value) == ["a@example.test", "Keller, Williams", "say \"hi\""])
    #expect(data.rows[1].values.map(\.value) == ["b@example.test", "Compass", "two\nlines"])
    #expect(data.rows[2].values.map(\.value) == ["c@example.test", "", ""])
  }

  @Test func yamlRowsAreAListOfMappings() throws {
    let data = try ScenarioData.yaml(
      "- {email: a@example.test, count: 3}\n- email: b@example.test\n  count: 4\n", file: "rows.yaml")
    #expect(data.rows.map(\.line) == [1, 2])
    #expect(data.rows.map { $0.values.map(\.value) } == [["a@example.test", "3"], ["b@example.test", "4"]])
  }

  @Test func badDataNamesTheFileAndLine() {
    let cases: [(text: String, file: String, message: String)] = [
      ("email,name\na@example.test\n", "d.csv", "d.csv:2: row 1 has 1 value; the header names 2 columns"),
      (
        "email,first name\n", "d.csv",
        "d.csv:1: \"first name\" is not a variable name (a letter or _, then letters, digits, _)"
      ),
      ("email,ENV\nx,y\n", "d.csv", "d.csv:1: \"ENV\" is set by deck; choose another name"),
      ("a,a\n1,2\n", "d.csv", "d.csv:1: the column \"a\" is named twice"),
      ("a\n\"open\n", "d.csv", "d.csv:2: a quoted value is not closed"),
      ("a\nx\"y\n", "d.csv", "d.csv:2: a quote inside an unquoted value (quote the whole value, and write \" as \"\")"),
      ("a,b\n", "d.csv", "d.csv: there is no row of values"),
      ("- {a: 1}\n- [1, 2]\n", "d.yaml", "d.yaml:2: row 2: expected a mapping of names to values"),
      ("- {a: {b: 1}}\n", "d.yaml", "d.yaml:1: row 1: a: expected a text, a number or true/false"),
      ("a: 1\n", "d.yaml", "d.yaml:1: expected a list of rows (- NAME: VALUE)"),
    ]
    for (text, file, message) in cases {
      let error = #expect(throws: DeckError.self) {
        try file.hasSuffix(".csv") ? ScenarioData.csv(text, file: file) : ScenarioData.yaml(text, file: file)
      }
      #expect(error?.message == message)
      #expect(error?.exitCode == ExitCode.usage)
    }
  }

  /// Each scenario runs once per row: its id numbered, the row's values over the scenario's own
  /// variables of the same name, its place naming the row; `--id` matches a scenario's own id
  /// (all its rows) or one row's.
  @Test func eachScenarioRunsOncePerRow() throws {
    let scenarios = try ScenarioParser.scenarios(
      """
      module: brokerage
      scenarios:
        - id: search
          tags: [readonly]
          generate: {email: email}
          vars: {name: Nobody, greeting: "hi ${name}"}
          steps:
            - run: brokerage search ${name} --json
      """, file: "s.yaml")
    let data = try ScenarioData.csv("name,email\nKeller,a@example.test\nCompass,b@example.test\n", file: "d.csv")
    let runs = data.expand(scenarios)
    #expect(runs.map(\.id) == ["search.row1", "search.row2"])
    #expect(runs.map(\.rows) == [["search"], ["search"]])
    #expect(runs[1].place == "s.yaml:3, data row 2 (d.csv:3)")
    #expect(runs[1].generate.isEmpty)
    let values = ScenarioVariables.initial(for: runs[1], environment: "local", token: { "t" })
    #expect(values["name"] == "Compass" && values["email"] == "b@example.test" && values["greeting"] == "hi Compass")
    #expect(
      QAReport.rerun(runs[1], environment: "local") == "deck qa run s.yaml --env local --data d.csv --id search.row2")
    try JQCheckRunner.validate(runs)
  }
}
