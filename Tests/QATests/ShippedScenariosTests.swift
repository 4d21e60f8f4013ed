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
      for row in spec.rows where row.notApplicable == nil {
        #expect(covered.contains(row.id), "\(row.id) is neither covered nor marked not applicable")
      }
      #expect(covered.subtracting(listed).isEmpty, "rows \(spec.spec) does not list: \(covered.subtracting(listed))")
      for scenario in mine {
        #expect(listed.contains(scenario.id), "\(scenario.id) names no row of \(spec.spec)")
        // Fault rules and delays change what every request gets: such scenarios run alone
        // and clear what they added.
        let operates = scenario.steps.contains {
          $0.run.contains("sandbox fault add") || $0.run.contains("sandbox delay")
        }
        if operates {
          #expect(scenario.tags.isSuperset(of: [.sandbox, .exclusive]), "\(scenario.id)")
          #expect(scenario.steps.contains { $0.always }, "\(scenario.id) leaves its faults behind")
        }
      }
    }
  }

  @Test func runCompletesModulesAndScenarioFiles() {
    #expect(ScenarioSourceCompletion.candidates(prefix: "pre") == ["prefs"])
    #expect(
      ScenarioSourceCompletion.candidates(prefix: "").starts(with: ["brokerage", "kiosk", "mbti", "prefs", "workspace"])
    )
  }
}
