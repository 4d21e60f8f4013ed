import DeckConfig
import DeckSupport
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// External plugins: an executable `deck-NAME` on PATH is `deck NAME …`, as with git, kubectl
/// and gh extensions. A built-in command always wins a name clash. `deck-sandbox`, the sandbox
/// server installed beside deck, is not a plugin.
public enum Plugins {
  public struct Plugin: Sendable, Equatable, Encodable {
    public var name: String
    public var path: String
    /// True when a built-in command has the same name (the built-in runs; the plugin never does).
    public var shadowed: Bool
  }

  /// Every `deck-*` executable on PATH, first one per name (as PATH lookup would pick it).
  public static func discover(path: String?, builtins: Set<String>) -> [Plugin] {
    var found: [String: Plugin] = [:]
    for (name, full) in executables(path: path) where found[name] == nil {
      found[name] = Plugin(name: name, path: full, shadowed: builtins.contains(name))
    }
    return found.keys.sorted().compactMap { found[$0] }
  }

  /// Every `deck-*` executable on PATH in lookup order, including those an earlier directory
  /// hides (`deck doctor` reports them); never the server program (``LocalSandbox/programName``).
  public static func executables(path: String?) -> [(name: String, path: String)] {
    var result: [(name: String, path: String)] = []
    for directory in (path ?? "").split(separator: ":").map(String.init) where !directory.isEmpty {
      guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
      for entry in entries.sorted()
      where entry.hasPrefix("deck-") && entry.count > 5 && entry != LocalSandbox.programName {
        let full = "\(directory)/\(entry)"
        guard access(full, X_OK) == 0, !isDirectory(full) else { continue }
        result.append((String(entry.dropFirst(5)), full))
      }
    }
    return result
  }

  private static func isDirectory(_ path: String) -> Bool {
    var isDirectory = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory
  }

  /// Runs a plugin with the current environment's name and service URLs (never a token:
  /// ``SecretVariables``)
  /// and returns its exit code. stdin, stdout and stderr are the plugin's own.
  public static func run(_ plugin: Plugin, arguments: [String], context: DeckContext) async throws -> Int32 {
    let environment = try context.environment()
    // Never a token, not even one the user exported: a plugin that needs it runs `deck auth token`.
    var variables = SecretVariables.removed(from: context.session.processEnvironment)
    variables["DECK_ENV"] = environment.name
    for service in Service.allCases {
      guard (try? environment.endpoint(for: service)) != nil else { continue }
      variables[service.overrideVariable] = try await context.baseURL(for: service).absoluteString
    }
    let pid: pid_t
    do {
      pid = try LocalProcess.spawnForeground(plugin.path, arguments: arguments, environment: variables)
    } catch {
      throw DeckError.failure("Cannot run the plugin \(plugin.path): \(error.reason)")
    }
    // Ctrl-C reaches the plugin through the terminal; deck waits for it to finish.
    return await BlockingWork.run(named: "deck-plugin") { LocalProcess.waitForExit(pid) }
  }
}
