import DeckSupport
import DeckYAML
import FoundationEssentials

/// The user's `config.yml`: the current environment and the environments they added or changed.
///
/// ```yaml
/// current: staging
/// environments:
///   staging:
///     flyr: https://staging.flyrpro.app
///     nudge: https://api-staging.nudge.starshape.in
///   my-sandbox:
///     sandbox: true
///     flyr: http://127.0.0.1:9000
/// ```
///
/// An entry named like a built-in environment changes that environment's values.
public struct ConfigFile: Sendable, Equatable {
  public struct Entry: Sendable, Equatable {
    public var urls: [Service: String] = [:]
    public var allowInsecureHTTP: Bool?
    public var isSandbox: Bool?
    /// `production: true`: the environment is production (`deck qa run` refuses scenarios that
    /// write to it unless `--allow-writes`).
    public var isProduction: Bool?
    /// The admin token of the served sandbox this environment points at (`deck sandbox serve`
    /// writes it; the file is 0600). A secret: never printed.
    public var sandboxAdminToken: String?
    public init(
      urls: [Service: String] = [:], allowInsecureHTTP: Bool? = nil, isSandbox: Bool? = nil,
      sandboxAdminToken: String? = nil, isProduction: Bool? = nil
    ) {
      self.urls = urls
      self.allowInsecureHTTP = allowInsecureHTTP
      self.isSandbox = isSandbox
      self.sandboxAdminToken = sandboxAdminToken
      self.isProduction = isProduction
    }
  }

  public var current: String?
  /// Where `current` was read (`PATH:LINE`), for errors about the environment it names.
  public var currentLocation: String?
  /// Entries in the order of the file, so a rewrite keeps the user's order.
  public var environments: [(name: String, entry: Entry)]

  public init(current: String? = nil, environments: [(name: String, entry: Entry)] = []) {
    self.current = current
    self.environments = environments
  }

  public static func == (lhs: ConfigFile, rhs: ConfigFile) -> Bool {
    lhs.current == rhs.current && lhs.environments.map(\.name) == rhs.environments.map(\.name)
      && lhs.environments.map(\.entry) == rhs.environments.map(\.entry)
  }

  public func entry(_ name: String) -> Entry? {
    environments.first { $0.name == name }?.entry
  }

  public mutating func setEntry(_ name: String, _ entry: Entry) {
    if let index = environments.firstIndex(where: { $0.name == name }) {
      environments[index].entry = entry
    } else {
      environments.append((name, entry))
    }
  }

  public mutating func removeEntry(_ name: String) {
    environments.removeAll { $0.name == name }
  }

  // MARK: Reading

  static var entryKeys: Set<String> {
    Set(
      Service.allCases.map(\.rawValue) + ["allow-insecure-http", "sandbox", "production", sandboxAdminTokenKey])
  }
  public static let sandboxAdminTokenKey = "sandbox-admin-token"

  /// Parses the file's text. Errors name the file and the line.
  public static func parse(_ text: String, path: String) throws -> ConfigFile {
    func malformed(_ message: String, _ node: YAMLNode?) -> DeckError {
      let line = node.map { ":\($0.mark.line)" } ?? ""
      return DeckError.configuration(
        "\(path)\(line): \(message)",
        hint: "Fix the file by hand; deck does not overwrite a config file it cannot read.")
    }
    let root: YAMLNode?
    do {
      root = try YAMLNode.compose(yaml: text)
    } catch {
      throw DeckError.configuration(
        "\(path): \(error)",
        hint: "Fix the file by hand; deck does not overwrite a config file it cannot read.")
    }
    guard let root else { return ConfigFile() }
    if root.isNull { return ConfigFile() }
    guard let top = root.mapping else { throw malformed("expected a mapping with `current` and `environments`", root) }
    var file = ConfigFile()
    for (keyNode, valueNode) in top {
      switch keyNode.string {
      case "current":
        guard let value = valueNode.string, !valueNode.isNull else {
          throw malformed("`current` must be an environment name", valueNode)
        }
        file.current = value
        file.currentLocation = "\(path):\(valueNode.mark.line)"
      case "environments":
        if valueNode.isNull { continue }
        guard let environments = valueNode.mapping else {
          throw malformed("`environments` must be a mapping of names to settings", valueNode)
        }
        for (nameNode, entryNode) in environments {
          guard let name = nameNode.string else { throw malformed("environment names must be strings", nameNode) }
          do { try URLPolicy.validateName(name) } catch let error as DeckError {
            throw malformed(error.message, nameNode)
          }
          var entry = Entry()
          if !entryNode.isNull {
            guard let settings = entryNode.mapping else {
              throw malformed("environment \"\(name)\" must be a mapping of service: URL", entryNode)
            }
            for (settingNode, value) in settings {
              let key = settingNode.string ?? ""
              switch key {
              case "allow-insecure-http":
                guard let flag = value.bool else {
                  throw malformed("`allow-insecure-http` must be true or false", value)
                }
                entry.allowInsecureHTTP = flag
              case "sandbox":
                guard let flag = value.bool else { throw malformed("`sandbox` must be true or false", value) }
                entry.isSandbox = flag
              case "production":
                guard let flag = value.bool else { throw malformed("`production` must be true or false", value) }
                entry.isProduction = flag
              case sandboxAdminTokenKey:
                guard let token = value.string, !token.isEmpty, token.allSatisfy({ $0.isASCII && !$0.isWhitespace })
                else { throw malformed("`\(sandboxAdminTokenKey)` must be a token (no spaces)", value) }
                entry.sandboxAdminToken = token
              default:
                guard let service = Service(rawValue: key) else {
                  let known = Service.allCases.map(\.rawValue).joined(separator: ", ")
                  throw malformed(
                    "unknown key \"\(key)\" in environment \"\(name)\" (known: \(known), allow-insecure-http, sandbox, production, \(sandboxAdminTokenKey))",
                    settingNode)
                }
                guard let url = value.string else { throw malformed("\(key) must be an absolute http(s) URL", value) }
                if case .failure(let problem) = ParsedURL.parse(url) {
                  throw malformed("\(key) is not a usable http(s) URL: \(problem.reason)", value)
                }
                entry.urls[service] = url
              }
            }
          }
          file.environments.append((name, entry))
        }
      default:
        throw malformed("unknown key \"\(keyNode.string ?? "?")\" (expected `current` or `environments`)", keyNode)
      }
    }
    return file
  }

  // MARK: Writing

  /// The file's text: stable order, easy to edit by hand.
  public func render() -> String {
    var lines = ["# deck configuration (docs: docs/GUIDE.md, \"Environments\"). Safe to edit by hand."]
    if let current { lines.append("current: \(Self.quote(current))") }
    if environments.isEmpty {
      lines.append("environments: {}")
    } else {
      lines.append("environments:")
      for (name, entry) in environments {
        let values = entry.urls.sorted { $0.key < $1.key }
        if values.isEmpty && entry.allowInsecureHTTP == nil && entry.isSandbox == nil && entry.sandboxAdminToken == nil
          && entry.isProduction == nil
        {
          lines.append("  \(Self.quote(name)): {}")
          continue
        }
        lines.append("  \(Self.quote(name)):")
        if let sandbox = entry.isSandbox { lines.append("    sandbox: \(sandbox)") }
        if let production = entry.isProduction { lines.append("    production: \(production)") }
        if let insecure = entry.allowInsecureHTTP { lines.append("    allow-insecure-http: \(insecure)") }
        for (service, url) in values { lines.append("    \(service.rawValue): \(Self.quote(url))") }
        if let token = entry.sandboxAdminToken {
          lines.append("    \(Self.sandboxAdminTokenKey): \(Self.quote(token))")
        }
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A YAML scalar that parses back to `value`: plain when that is unambiguous, otherwise
  /// double-quoted with escapes. Works on code points: a quote followed by a combining mark
  /// is one grapheme cluster but still a quote to YAML.
  static func quote(_ value: String) -> String {
    let scalars = value.unicodeScalars
    let plainCharacters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:".unicodeScalars
    let plain =
      !scalars.isEmpty && scalars.allSatisfy { plainCharacters.contains($0) }
      && scalars.first.map { $0.properties.isASCIIHexDigit || $0.properties.isAlphabetic } == true
      && scalars.last != ":" && !value.contains("::")
      && !["true", "false", "null", "yes", "no", "on", "off", "y", "n"].contains(value.lowercased())
    if plain { return value }
    var quoted = "\""
    for scalar in scalars {
      switch scalar {
      case "\\": quoted += "\\\\"
      case "\"": quoted += "\\\""
      case _
      where scalar.value < 0x20 || (0x7F...0xA0).contains(scalar.value) || scalar.value == 0x2028
        || scalar.value == 0x2029 || scalar.value == 0xFEFF:
        quoted +=
          "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
          + String(scalar.value, radix: 16)
      default: quoted.unicodeScalars.append(scalar)
      }
    }
    return quoted + "\""
  }
}

/// Loads and saves `config.yml`.
public struct ConfigStore: Sendable {
  public let path: String

  public init(path: String) { self.path = path }

  /// The file, or an empty config when there is none. A file that cannot be parsed is an error.
  public func load() throws -> ConfigFile {
    try parse(read())
  }

  /// The file's bytes, as `parse` takes them (nil when there is no file). Read with `open` and
  /// `read`: a script reads it before every line (so that an edit takes effect on the next),
  /// and FileManager costs more than the read.
  public func read() -> Data? { InputFile.bytes(of: path, upTo: .max) }

  /// Parses bytes read from the file (nil: no file). A config directory other users can
  /// write to is refused first.
  public func parse(_ data: Data?) throws -> ConfigFile {
    try SecureDirectory.checkParent(of: path)
    guard let data else {
      if FileManager.default.fileExists(atPath: path) {
        throw DeckError.configuration("Cannot read \(path).", hint: "Check its permissions.")
      }
      return ConfigFile()
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw DeckError.configuration("\(path) is not UTF-8 text.")
    }
    return try ConfigFile.parse(text, path: path)
  }

  /// Writes the file atomically (temporary file, then rename), under the file's lock.
  public func save(_ file: ConfigFile) throws {
    try AtomicFile.ensureDirectory(PathText.parent(path))
    try FileLock(for: path).withLock { try AtomicFile.write(Data(file.render().utf8), to: path, mode: 0o600) }
  }

  /// Reads, changes and writes the file under its lock, so that parallel deck processes
  /// (several `env add` at once) never lose each other's changes. Nothing is written when
  /// `change` throws. Returns what `change` returns.
  @discardableResult
  public func update<T>(_ change: (inout ConfigFile) throws -> T) throws -> T {
    try AtomicFile.ensureDirectory(PathText.parent(path))
    return try FileLock(for: path).withLock {
      var file = try load()
      let result = try change(&file)
      try AtomicFile.write(Data(file.render().utf8), to: path, mode: 0o600)
      return result
    }
  }
}
