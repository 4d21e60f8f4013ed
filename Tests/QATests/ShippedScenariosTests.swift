import Testing

@testable import DeckQA

/// The scenarios deck ships: they parse, their jq compiles, their ids are unique, and every
/// row of the five checklists is covered or says why a terminal cannot exercise it.
@Suite struct ShippedScenariosTests {
  @Test func theShippedScenariosParseAndCoverEveryRow() throws {
    let scenarios = try ScenarioCatalog.shipped()
    try JQCheckRunner.validate(scenarios)
    #expect(Set(scenarios.map(\.id)).count == scenarios.count)
    let specs = try ScenarioCatalog.shippedRows()
    #expect(Set(specs.map(\.module)) == ["brokerage", "kiosk", "mbti", "prefs", "workspace"])
    #expect(Set(scenarios.map(\.module)) == Set(specs.map(\.module)))
    for spec in specs {
      let mine = scenarios.filter { $0.module == spec.module }
      let covered = Set(mine.flatMap(\.rows))
      let listed = Set(spec.rows.map(\.id))
      for row in spec.rows {
        #expect(row.kind != nil, "\(row.id) does not say its kind (backend, client or both)")
      }
      for row in spec.rows where row.notApplicable == nil {
        #expect(covered.contains(row.id), "\(row.id) is neither covered nor marked not applicable")
      }
      #expect(covered.subtracting(listed).isEmpty, "rows \(spec.spec) does not list: \(covered.subtracting(listed))")
      for scenario in mine {
        #expect(listed.contains(scenario.id), "\(scenario.id) names no row of \(spec.spec)")
        // Fault rules and delays are kept to the scenario's own requests (its scope in the
        // run): such scenarios run beside the others, and clear what they added.
        let operates = scenario.steps.contains {
          $0.run.contains("sandbox fault add") || $0.run.contains("sandbox delay")
        }
        if operates {
          #expect(scenario.tags.contains(.sandbox), "\(scenario.id)")
          #expect(scenario.steps.contains { $0.always }, "\(scenario.id) leaves its faults behind")
        }
        // A scenario that steps kiosk sessions pairs a store made for it: a shared store's
        // newest session could be another client's.
        #expect(
          !scenario.steps.contains { $0.run.contains("store_demo") || $0.run.contains("store_abc123") },
          "\(scenario.id) uses a shared store")
        #expect(!scenario.tags.contains(.exclusive), "\(scenario.id) runs alone, which scoping makes unnecessary")
        // Outside a sandbox only scenarios without the tag run (qa coverage --env counts them):
        // one that runs an operator command, or signs in as an account the sandbox seeds,
        // says so, so that it is skipped there rather than failing.
        if scenario.steps.contains(where: Self.needsTheSandbox) {
          #expect(scenario.tags.contains(.sandbox), "\(scenario.id) needs the sandbox but is not tagged sandbox")
        }
      }
    }
  }

  /// A step that runs `deck sandbox …` (its line, or a line of the script it runs from stdin),
  /// or names an account the sandbox seeds (`…@sandbox.test`).
  static func needsTheSandbox(_ step: Step) -> Bool {
    let lines =
      [step.run] + (step.run.hasPrefix("run ") ? (step.stdin ?? "").split(separator: "\n").map(String.init) : [])
    return lines.contains { line in
      let words = line.split(separator: " ").drop { $0 == "deck" }
      return words.first == "sandbox" || line.contains("@sandbox.test")
    }
  }

  @Test func runCompletesModulesAndScenarioFiles() {
    #expect(ScenarioSourceCompletion.candidates(prefix: "pre") == ["prefs"])
    #expect(
      ScenarioSourceCompletion.candidates(prefix: "").starts(with: ["brokerage", "kiosk", "mbti", "prefs", "workspace"])
    )
  }
}
