import DeckSupport
import DeckYAML
import FoundationEssentials

/// Values for the parameters of the operations `deck contract check` sends: IDs that exist in
/// one environment. A small YAML file per environment, at `~/.config/deck/contract/<env>.yml`
/// (`deck contract fixtures` starts one):
///
///     parameters:        # by parameter name, for every operation
///       id: 6a83db2f-a5df-5bbe-a98b-7c74bf55aa3e
///     operations:        # under an operation's id: wins over `parameters`
///       searchBrokerages:
///         q: keller
struct ContractFixtures: Sendable, Equatable {
  var parameters: [String: String] = [:]
  var operations: [String: [String: String]] = [:]

  /// The value for `parameter` of `operation`, if the file gives one.
  func value(_ parameter: String, operation: String) -> String? {
    operations[operation]?[parameter] ?? parameters[parameter]
  }

  /// The file of `environment` in deck's config directory.
  static func path(configDirectory: String, environment: String) -> String {
    configDirectory + "/contract/" + environment + ".yml"
  }

  /// Reads a fixtures file; a missing file is no fixtures. Problems name the file and line
  /// (exit 64). `safeOperations` are the ids that may have fixtures: naming any other
  /// operation (one that writes) is refused, so no fixture can make the check send it.
  static func load(path: String, safeOperations: Set<String>, allOperations: Set<String>) throws -> ContractFixtures {
    guard FileManager.default.fileExists(atPath: path) else { return ContractFixtures() }
    guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
      throw DeckError.usage("Cannot read the fixtures file \(path) as UTF-8 text.")
    }
    return try parse(text, file: path, safeOperations: safeOperations, allOperations: allOperations)
  }

  static func parse(_ text: String, file: String, safeOperations: Set<String>, allOperations: Set<String>) throws
    -> ContractFixtures
  {
    let root: YAMLNode?
    do { root = try YAMLNode.compose(yaml: text) } catch {
      throw DeckError.usage(
        "\(file): \(error.mark.map { "line \($0.line): " } ?? "")\(error.problem)",
        hint: "Fix the YAML, or start again with: deck contract fixtures --force")
    }
    guard let root else { return ContractFixtures() }
    func problem(_ node: YAMLNode, _ message: String) -> DeckError {
      DeckError.usage("\(file):\(node.mark.line): \(message)")
    }
    guard let mapping = root.mapping else { throw problem(root, "expected a mapping with parameters and operations") }
    var fixtures = ContractFixtures()
    for (keyNode, value) in mapping {
      switch keyNode.string {
      case "parameters":
        fixtures.parameters = try values(value, problem: problem)
      case "operations":
        guard let operations = value.mapping else {
          throw problem(value, "operations: expected a mapping of operation ids")
        }
        for (idNode, parameters) in operations {
          let id = idNode.string ?? ""
          guard allOperations.contains(id) else {
            throw problem(idNode, "no operation has the id \"\(id)\" (list them with: deck contract list)")
          }
          guard safeOperations.contains(id) else {
            throw problem(
              idNode, "\(id) changes data: deck contract check sends only GET and HEAD, so it takes no fixtures")
          }
          fixtures.operations[id] = try values(parameters, problem: problem)
        }
      default:
        throw problem(
          keyNode, "unknown key \"\(keyNode.string ?? "?")\": a fixtures file has parameters and operations")
      }
    }
    return fixtures
  }

  /// A mapping of parameter names to scalar values.
  private static func values(_ node: YAMLNode, problem: (YAMLNode, String) -> DeckError) throws -> [String: String] {
    if case .scalar(let scalar) = node, scalar.string == "~" || scalar.string.isEmpty { return [:] }
    guard let mapping = node.mapping else { throw problem(node, "expected a mapping of parameter names to values") }
    var values: [String: String] = [:]
    for (name, value) in mapping {
      guard let key = name.string, let text = value.scalar?.string else {
        throw problem(value, "\(name.string ?? "?"): expected a single value (a string or a number)")
      }
      values[key] = text
    }
    return values
  }

  /// The file as YAML, with a header that says what it is.
  func yaml(environment: String, notes: [String]) -> String {
    var text = """
      # deck contract fixtures for environment "\(environment)": values that exist there, for the
      # parameters of the operations deck contract check sends (GET and HEAD only).
      # parameters: by name, for every operation; operations.<id>: for one operation (wins).

      """
    for note in notes { text += "# \(note)\n" }
    text += "parameters:\n"
    if parameters.isEmpty { text += "  {}\n" }
    for (name, value) in parameters.sorted(by: { $0.key < $1.key }) {
      text += "  \(Self.scalar(name)): \(Self.scalar(value))\n"
    }
    text += "operations:\n"
    if operations.isEmpty { text += "  {}\n" }
    for (id, values) in operations.sorted(by: { $0.key < $1.key }) {
      text += "  \(Self.scalar(id)):\n"
      for (name, value) in values.sorted(by: { $0.key < $1.key }) {
        text += "    \(Self.scalar(name)): \(Self.scalar(value))\n"
      }
    }
    return text
  }

  /// A YAML scalar that reads back as this string.
  static func scalar(_ value: String) -> String {
    YAMLWriter.text(value)
  }
}
