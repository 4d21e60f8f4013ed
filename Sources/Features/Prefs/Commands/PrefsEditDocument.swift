import DeckSupport
import DeckValues
import DeckYAML
import FoundationEssentials
import PrefsRules

/// The file `deck prefs edit` opens in the editor: a category's values as YAML, each field with
/// a comment saying what it is and what it accepts, grouped by the form's sections; and reading
/// it back, typed by the catalog (so `zip: 02139` stays text and `bats: l` is upper-cased).
enum PrefsEditDocument {
  /// The line that ends the header; what is above it is replaced when the file is reopened.
  static let headerEnd = "# ---"

  /// The whole file: the header (with `problems` when reopening), then `body` (the user's last
  /// version) or the value rendered.
  static func render(
    _ value: PrefsValue, owner: String, environment: String, problems: [String] = [], body: String? = nil
  ) -> String {
    var header = [
      "# Editing the \(value.category.noun) of \(owner) in environment \(environment).",
      "# Change values and save to send what changed; lines starting with # are ignored. An unchanged",
      "# file changes nothing, an empty file cancels. null (or deleting the line) unsets a field.",
    ]
    if !problems.isEmpty {
      header.append("#")
      header.append("# The file had problems, so nothing was sent. Fix them and save again, or empty the file")
      header.append("# to cancel:")
      header += Validation.capped(problems).map { "#   " + TerminalText.sanitize($0) }
    }
    header.append(headerEnd)
    return (header + [body.map(stripHeader) ?? renderBody(value)]).joined(separator: "\n")
  }

  /// `text` without its header (everything up to and including the `# ---` line).
  static func stripHeader(_ text: String) -> String {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard let end = lines.firstIndex(where: { $0.trimming(.whitespaces) == headerEnd }) else {
      return text
    }
    return lines[(end + 1)...].joined(separator: "\n")
  }

  /// True when the file holds nothing but comments and blank lines.
  static func isEmpty(_ text: String) -> Bool {
    text.split(separator: "\n").allSatisfy {
      let line = $0.trimming(.whitespaces)
      return line.isEmpty || line.hasPrefix("#")
    }
  }

  // MARK: Rendering

  static func renderBody(_ value: PrefsValue) -> String {
    switch value {
    case .school(let school): return renderSchool(school)
    default: return renderFields(value)
    }
  }

  static func renderFields(_ value: PrefsValue) -> String {
    let object = PrefsText.object(value)
    let fields = value.category.fields
    var lines: [String] = []
    var container: String?
    for section in value.category.sections {
      lines.append("")
      lines.append("# \(section)")
      for spec in fields where spec.section == section {
        if spec.container != container, let name = spec.container {
          lines.append("\(name):")
        }
        container = spec.container
        let indent = spec.container == nil ? "" : "  "
        var comment = "\(spec.label): \(spec.allowed)"
        if let parent = spec.parent { comment += " (no effect while \(parent) is off)" }
        lines.append(padded(indent + spec.key + ": " + scalar(PrefsText.value(spec, in: object)), comment))
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func renderSchool(_ school: SchoolPreferences) -> String {
    var lines = [
      "",
      padded(
        "templateUsed: " + (school.templateUsed.map { scalar(.string($0)) } ?? "null"),
        "the template the list came from (deck prefs school template); null for none"),
      "",
      "# The preferences, most important first: the order is the priority. Each has a type, a value",
      "# and isDealbreaker; keep the id of an existing one (a new one needs none). Types and values:",
    ]
    lines += SchoolPreferenceType.allCases.map {
      "#   \($0.rawValue): \($0.allowed)\($0.valueKind == .stringList ? " (a list)" : "")"
    }
    guard !school.preferences.isEmpty else { return (lines + ["preferences: []"]).joined(separator: "\n") + "\n" }
    lines.append("preferences:")
    for preference in school.ordered {
      lines.append(
        padded("  - type: \(preference.type.rawValue)", "priority \(preference.priority): \(preference.type.label)"))
      lines.append("    value: " + scalar(preference.value.json))
      lines.append("    isDealbreaker: \(preference.isDealbreaker)")
      lines.append("    id: " + scalar(.string(preference.id)))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `line` with `# comment` after it, comments aligned at column 40 where the line is shorter.
  static func padded(_ line: String, _ comment: String) -> String {
    let column = 40
    let padding = line.count < column ? String(repeating: " ", count: column - line.count) : "  "
    return line + padding + "# " + comment
  }

  /// A JSON value as a YAML scalar on one line, lists in brackets: text spelled by DeckYAML's
  /// writer, as `prefs get --format yaml` spells it (plain when it reads back as the same text,
  /// quoted otherwise).
  static func scalar(_ value: JSONValue, inFlow: Bool = false) -> String {
    switch value {
    case .null: "null"
    case .bool(let flag): flag ? "true" : "false"
    case .number(let number): number.literal
    case .string(let text): self.text(text, inFlow: inFlow)
    case .array(let items): "[" + items.map { scalar($0, inFlow: true) }.joined(separator: ", ") + "]"
    case .object(let object):
      "{"
        + object.keys.sorted().map { self.text($0, inFlow: true) + ": " + scalar(object[$0] ?? .null, inFlow: true) }
        .joined(separator: ", ") + "}"
    }
  }

  /// Text as DeckYAML writes it, but quoted when it has white space at either end: a plain
  /// scalar is read back through the field's parser, which trims it.
  static func text(_ text: String, inFlow: Bool) -> String {
    let spaced = text.first?.isWhitespace == true || text.last?.isWhitespace == true
    return spaced ? YAMLWriter.quoted(text) : YAMLWriter.text(text, inFlow: inFlow)
  }

  // MARK: Reading

  /// The edited file as a value of `category`: parsed as YAML, typed by the catalog, unknown keys
  /// refused (a misspelt key is not dropped silently), normalised and validated. Every problem is
  /// reported, with YAML syntax errors by line.
  static func parse(_ text: String, as category: PrefsCategory) -> Result<PrefsValue, Validation> {
    // Aliases share what they name: `&a [*b, *b, …]` nine levels deep is a few hundred bytes
    // of YAML and billions of values once read. Reading stops at the limit.
    let node: YAMLNode?
    do {
      node = try YAMLNode.compose(yaml: text, nodeLimit: Self.nodeLimit)
    } catch  where !error.exceedsLimit {
      return .failure(
        Validation([issue("YAML", "is not valid YAML (\(error))", "YAML like the file deck wrote")]))
    } catch {
      return .failure(
        Validation([
          issue(
            "document", "holds more than \(nodeLimit) values once its aliases (*name) are expanded",
            "the fields as deck wrote them, without anchors and aliases")
        ]))
    }
    guard case .mapping(let mapping)? = node else {
      return .failure(Validation([issue("document", "is not a mapping of fields", "key: value lines")]))
    }
    let json: JSONValue
    switch category {
    case .school: json = schoolJSON(mapping)
    default: json = .object(object(mapping, kinds: kinds(category)))
    }
    // Values that read are checked even when other keys are wrong: every problem at once.
    let (value, issues) = PrefsValue.readAll(json, as: category)
    let shape = PrefsValue.shapeIssues(json, as: category, .noUnknownKeys)
    guard issues.isEmpty && shape.isEmpty else { return .failure(Validation(issues + shape)) }
    return .success(value)
  }

  /// The most values (scalars, lists, mappings, keys included) an edited file may hold with its
  /// aliases expanded: a category has at most a few hundred.
  static let nodeLimit = 100_000

  /// What each key of a category (and of its containers) holds.
  indirect enum Kind {
    /// A catalog field: typed text is read as the field reads it (`5'11"` for a height).
    case field(FieldSpec)
    case plain(FieldKind)
    case object([String: Kind])
  }

  static func kinds(_ category: PrefsCategory) -> [String: Kind] {
    var kinds: [String: Kind] = [:]
    for spec in category.fields {
      if let container = spec.container {
        guard case .object(var inner) = kinds[container] ?? .object([:]) else { continue }
        inner[spec.key] = .field(spec)
        kinds[container] = .object(inner)
      } else {
        kinds[spec.key] = .field(spec)
      }
    }
    return kinds
  }

  static func object(_ mapping: YAMLNode.Mapping, kinds: [String: Kind]) -> JSONObject {
    var object = JSONObject()
    for (key, value) in mapping {
      let name = key.scalar?.string ?? "\(key)"
      object[name] = json(value, kinds[name])
    }
    return object
  }

  /// A node as JSON: a plain scalar typed by `kind` (the catalog's), or by YAML's core schema
  /// when the key is unknown; a quoted one is always text. A value that does not read as its
  /// kind stays text, so that validation names it.
  static func json(_ node: YAMLNode, _ kind: Kind?) -> JSONValue {
    switch node {
    case .scalar(let scalar):
      let text = scalar.string
      guard scalar.style == .plain, scalar.tag == nil else { return .string(text) }
      if YAMLScalarValue.plain(text) == .null { return .null }
      switch kind {
      case .field(let spec)?:
        if case .success(let value) = spec.parse(text) { return value }
        return .string(text)
      case .plain(let fieldKind)?:
        return fieldKind.parse(text) ?? .string(text)
      default:
        if let bool = ["true": true, "True": true, "TRUE": true, "false": false, "False": false, "FALSE": false][text] {
          return .bool(bool)
        }
        return FieldKind.int.parse(text) ?? FieldKind.double.parse(text) ?? .string(text)
      }
    case .sequence(let sequence):
      let isList: Bool = if case .field(let spec)? = kind { spec.kind == .stringList } else { false }
      return .array(sequence.map { json($0, isList ? .plain(.string) : nil) })
    case .mapping(let mapping):
      if case .object(let inner)? = kind { return .object(object(mapping, kinds: inner)) }
      return .object(object(mapping, kinds: [:]))
    }
  }

  /// The school list: each item's value typed by its type; priorities from the order, categories
  /// from the types, ids made for new items.
  static func schoolJSON(_ mapping: YAMLNode.Mapping) -> JSONValue {
    var object = JSONObject()
    for (key, value) in mapping {
      let name = key.scalar?.string ?? "\(key)"
      guard name == "preferences", case .sequence(let items) = value else {
        object[name] = json(value, name == "templateUsed" || name == "lastUpdated" ? .plain(.string) : nil)
        continue
      }
      object[name] = .array(
        items.enumerated().map { offset, item in
          guard case .mapping(let fields) = item else { return json(item, nil) }
          let typeName = fields.first { $0.key.scalar?.string == "type" }?.value.scalar?.string
          let type = typeName.flatMap(SchoolPreferenceType.init(rawValue:))
          var kinds: [String: Kind] = [
            "id": .plain(.string), "type": .plain(.string), "category": .plain(.string), "priority": .plain(.int),
            "isDealbreaker": .plain(.bool),
          ]
          if let type { kinds["value"] = .field(type.spec) }
          var preference = self.object(fields, kinds: kinds)
          preference["priority"] = .int(offset + 1)
          if let type, preference["category"] == nil { preference["category"] = .string(type.category.rawValue) }
          if preference["id"] == nil || preference["id"] == .null {
            preference["id"] = .string(UUID().uuidString.lowercased())
          }
          if preference["isDealbreaker"] == nil { preference["isDealbreaker"] = .bool(false) }
          return .object(preference)
        })
    }
    return .object(object)
  }

  static func issue(_ field: String, _ problem: String, _ allowed: String) -> ValidationIssue {
    ValidationIssue(field: field, value: "", allowed: allowed, message: "\(field): \(problem); use \(allowed)")
  }

}
