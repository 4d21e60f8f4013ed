import DeckCore
import DeckSupport
import DeckValues
import FoundationEssentials
import PrefsRules

/// How deck shows preferences to a person: grouped as the spec's form sections, the dashboard as
/// the app's two-column grid of ✓/✗, nested notification settings marked inactive while their
/// toggle is off, the school list as a table with its dealbreaker badges.
struct PrefsText {
  let output: Output

  /// The value's JSON object (the shape the API and export files use).
  static func object(_ value: PrefsValue) -> JSONObject {
    guard let data = try? JSONEncoder().encode(value), case .object(let object)? = JSONValue.parse(data) else {
      return JSONObject()
    }
    return object
  }

  /// A field's value in `object` (inside its container, if it has one); `.null` when unset.
  static func value(_ spec: FieldSpec, in object: JSONObject) -> JSONValue {
    guard let container = spec.container else { return object[spec.key] ?? .null }
    guard case .object(let inner)? = object[container] else { return .null }
    return inner[spec.key] ?? .null
  }

  /// The keys of nested fields whose toggle is off.
  static func inactive(_ value: PrefsValue) -> [String] {
    ((value.model as? any FieldRecord)?.inactiveFields ?? []).sorted()
  }

  /// Prints `value` for a person.
  func show(_ value: PrefsValue) {
    switch value {
    case .school(let school): showSchool(school)
    case .dashboard(let dashboard): showDashboard(dashboard)
    default: showSections(value)
    }
  }

  /// Every field, section by section: `label  value`, `-` when unset, `on`/`off` for toggles,
  /// nested fields indented under their toggle.
  func showSections(_ value: PrefsValue) {
    let object = Self.object(value)
    let fields = value.category.fields
    let inactive = Set(Self.inactive(value))
    let labels = Dictionary(fields.map { ($0.key, $0.label) }, uniquingKeysWith: { first, _ in first })
    let width = fields.map { $0.label.count + ($0.parent == nil ? 0 : 2) }.max() ?? 0
    var lines: [String] = []
    for section in value.category.sections {
      if !lines.isEmpty { lines.append("") }
      lines.append(output.style(section, .bold))
      for spec in fields where spec.section == section {
        let indent = spec.parent == nil ? "  " : "    "
        let label = spec.label.padded(toLength: width - (indent.count - 2))
        var shown = Self.display(spec, Self.value(spec, in: object))
        if inactive.contains(spec.key), let parent = spec.parent {
          shown += output.style("  (inactive: \(labels[parent] ?? parent) is off)", .dim)
        }
        lines.append(indent + label + "  " + shown)
      }
    }
    if case .location(let location) = value, location.hasCoordinates {
      lines.append("  " + output.style("✓", .green) + " Coordinates ready")
    }
    output.styledLines(lines)
  }

  /// A value as the form shows it: `-` when unset, `on`/`off`, heights as `5'11"`, lists comma-separated.
  static func display(_ spec: FieldSpec, _ value: JSONValue) -> String {
    switch value {
    case .bool(let on): on ? "on" : "off"
    default: TerminalText.sanitize(spec.display(value) ?? "-")
    }
  }

  /// The two sections as two-column grids of ✓ (shown) and ✗ (hidden), with the JSON names
  /// `dashboard show|hide` take.
  func showDashboard(_ dashboard: DashboardWidgetVisibility) {
    var lines: [String] = []
    func section<Item: DashboardItem>(_ visibility: DashboardVisibility<Item>) {
      let items = Item.allCases
      let cells = items.map { item in
        (mark: visibility[item] ? output.style("✓", .green) : output.style("✗", .red), text: item.rawValue)
      }
      let width = cells.map(\.text.count).max() ?? 0
      if !lines.isEmpty { lines.append("") }
      lines.append(output.style("\(Item.section.title) (\(visibility.shown.count) of \(items.count) shown)", .bold))
      // Two columns where they fit (2 + mark + space + name, the gap, mark + space + name), else one.
      let perLine = output.columns.map { 2 + 2 + width + 4 + 2 + width <= $0 } ?? true ? 2 : 1
      var index = 0
      while index < cells.count {
        let left = cells[index]
        var line = "  \(left.mark) " + (perLine == 2 ? left.text.padded(toLength: width) : left.text)
        if perLine == 2, index + 1 < cells.count {
          let right = cells[index + 1]
          line += "    \(right.mark) \(right.text)"
        }
        lines.append(line)
        index += perLine
      }
    }
    section(dashboard.statsCards)
    section(dashboard.widgets)
    output.styledLines(lines)
  }

  /// The list in priority order: priority, label, value, a dealbreaker badge and the id.
  func showSchool(_ school: SchoolPreferences) {
    if let template = school.templateUsed {
      output.line("Template: \(TerminalText.sanitize(template))")
    }
    guard !school.preferences.isEmpty else {
      output.paragraph("No school preferences. Add one with deck prefs school add TYPE VALUE, or apply a template.")
      return
    }
    output.table(
      ["PRIORITY", "PREFERENCE", "VALUE", "DEALBREAKER", "ID"],
      school.ordered.map { preference in
        [
          String(preference.priority), preference.type.label, preference.type.display(preference.value),
          preference.isDealbreaker ? "dealbreaker" : "", preference.id,
        ]
      }, cellStyle: { _, column, text in column == 3 && !text.isEmpty ? .yellow : nil })
  }

  /// `field: old → new` for each change, or that nothing changed.
  func showChanges(_ changes: [FieldChange]) {
    if changes.isEmpty { return output.info("Nothing changed.") }
    output.line(changes.map { TerminalText.sanitize($0.description) }.joined(separator: "\n"))
  }
}
