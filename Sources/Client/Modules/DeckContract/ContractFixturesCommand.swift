import ArgumentParser
import ContractCheck
import DeckCore
import DeckSupport
import DeckValues
import FoundationEssentials

/// `deck contract fixtures`: starts an environment's fixtures file with values read from its
/// own list and search answers.
struct ContractFixturesCommand: DeckCommand, NamingFiles {
  static let files = FileArguments(writes: ["--fixtures"])

  static let configuration = CommandConfiguration(
    commandName: "fixtures", _superCommandName: "deck",
    abstract: "Start the environment's fixtures file with IDs read from its list and search answers.",
    discussion: HelpText.discussion(
      """
      Sends the read-only operations that need no value (lists, searches, with the documents' \
      examples), then gives every parameter that `contract check` would otherwise skip the first \
      value of a property of the same name found in those answers. Writes \
      ~/.config/deck/contract/ENV.yml (or --fixtures FILE), with a comment for each value saying \
      where it came from and a list of the parameters still without one; edit it as you like. \
      Operations that need a token are asked only when an account is signed in.
      """,
      exits: [
        .failure("the file exists (use --force)"), .usage("a bad option"),
        .unavailable("the environment could not be reached"),
      ]))

  @OptionGroup var global: GlobalOptions

  @Option(
    help: ArgumentHelp("Write this file instead of ~/.config/deck/contract/ENV.yml.", valueName: "file"),
    completion: .file())
  var fixtures: String?

  @Flag(help: "Replace the file if it exists.")
  var force = false

  func run(_ context: DeckContext) async throws {
    let catalog = try ContractCatalog.embedded()
    let environment = try context.environment()
    let path =
      fixtures ?? ContractFixtures.path(configDirectory: context.paths.configDirectory, environment: environment.name)
    if FileManager.default.fileExists(atPath: path), !force {
      throw DeckError.failure(
        "The fixtures file \(path) exists.", hint: "Edit it, or start again with: deck contract fixtures --force")
    }
    let signedIn =
      !(context.session.processEnvironment["DECK_TOKEN"] ?? "").isEmpty
      || (try? context.tokenStore.accounts(in: environment.name).activeSession) != nil
    let safe = try catalog.operations(services: [], operationIDs: []).filter {
      $0.1.isSafe && (signedIn || !$0.1.requiresAuth)
    }
    let probe = ContractProbe(
      context: context, settings: .init(rate: 5, budget: 50), fixtures: ContractFixtures(), fixturesPath: path)
    // The answers of the operations that can be sent as they are.
    let sendable = safe.filter { if case .success = probe.build($0.1) { true } else { false } }
    var found: [String: (value: String, from: String)] = [:]
    var reached = false
    for (entry, operation) in sendable {
      guard case .success(let request) = probe.build(operation),
        let answer = try? await probe.send(request, operation: operation, entry: entry)
      else { continue }
      reached = true
      guard (200..<300).contains(answer.status),
        let json = try? JSONDecoder().decode(JSONValue.self, from: Data(answer.body))
      else { continue }
      Self.collect(json) { key, value in
        if found[key] == nil { found[key] = (value, operation.id) }
      }
    }
    if !sendable.isEmpty, !reached {
      throw DeckError(
        .unavailable(status: nil), "Could not reach environment \"\(environment.name)\".",
        hint: "Check it with: deck doctor --env \(environment.name)")
    }
    // Every parameter check would skip gets the value of the property of its name.
    var file = ContractFixtures()
    var notes: [String] = []
    var missing: [String] = []
    for (_, operation) in safe {
      guard case .failure = probe.build(operation) else { continue }
      for parameter in operation.parameters
      where (parameter.required || parameter.location == .path) && parameter.examples.isEmpty {
        if let (value, from) = Self.candidates(parameter.name).lazy.compactMap({ found[$0] }).first {
          if file.parameters[parameter.name] == nil {
            file.parameters[parameter.name] = value
            notes.append("\(parameter.name): from the answer of \(from)")
          }
        } else {
          missing.append("\(operation.id) needs \(parameter.name)")
        }
      }
    }
    if !missing.isEmpty { notes.append("no value found (add them by hand): " + missing.joined(separator: "; ")) }
    try AtomicFile.ensureDirectory(PathText.parent(path))
    try AtomicFile.write(Data(file.yaml(environment: environment.name, notes: notes).utf8), to: path, mode: 0o600)
    try context.output.emit(["file": path, "parameters": "\(file.parameters.count)", "missing": "\(missing.count)"]) {
      context.output.line(
        "Wrote \(path): \(file.parameters.count) value\(file.parameters.count == 1 ? "" : "s") from \(environment.name)"
          + (missing.isEmpty
            ? "." : "; \(missing.count) parameter\(missing.count == 1 ? " still needs" : "s still need") one."))
    }
  }

  /// The property names whose value a parameter takes, best first: `owner` takes an `ownerId`
  /// (or `owner_id`) before an `owner`, which may be a name or an address; `storeId` takes a
  /// `storeId` or `store_id`.
  static func candidates(_ parameter: String) -> [String] {
    if parameter.hasSuffix("Id") { return [parameter, parameter.dropLast(2) + "_id"] }
    if parameter.hasSuffix("_id") { return [parameter, parameter.dropLast(3) + "Id"] }
    return [parameter + "Id", parameter + "_id", parameter]
  }

  /// Calls `found` with each property of `json` that holds a string or a number, breadth first.
  static func collect(_ json: JSONValue, _ found: (String, String) -> Void) {
    var queue: [JSONValue] = [json]
    var index = 0
    while index < queue.count, index < 10_000 {
      let node = queue[index]
      index += 1
      switch node {
      case .object(let object):
        for (key, value) in object.entries.sorted(by: { $0.key < $1.key }) {
          switch value {
          case .string(let string) where !string.isEmpty && string.count <= 200: found(key, string)
          case .number(let number) where Int64(number.literal) != nil || UInt64(number.literal) != nil:
            found(key, number.literal)
          case .array, .object: queue.append(value)
          default: break
          }
        }
      case .array(let array):
        queue.append(contentsOf: array.prefix(50))
      default:
        break
      }
    }
  }
}
