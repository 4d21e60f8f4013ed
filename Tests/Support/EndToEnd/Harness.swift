import DeckApp
import DeckConfig
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the built `deck` binary the way a user does: a fresh process, real files, real sockets.
package struct DeckCLI {
  /// The `deck` next to the test bundle (SwiftPM builds it first: the test target depends on it).
  package static let binary: String = {
    if let explicit = ProcessInfo.processInfo.environment["DECK_BINARY"] { return explicit }
    var directory = Bundle.main.bundleURL
    for _ in 0..<4 {
      let candidate = directory.appendingPathComponent("deck").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      directory.deleteLastPathComponent()
    }
    return Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("deck").path
  }()

  /// The sandbox server program beside deck.
  package static let sandboxBinary = URL(fileURLWithPath: binary).deletingLastPathComponent()
    .appendingPathComponent("deck-sandbox").path

  /// HOME, XDG directories and the config directory, all inside one temporary directory,
  /// which is removed when the last copy of this value is gone.
  package let home: String
  private let homeDirectory: TemporaryDirectory
  package var environment: [String: String]

  package init() throws {
    homeDirectory = try TemporaryDirectory(prefix: "deck-e2e-")
    home = homeDirectory.path
    environment = [
      "HOME": home, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
      "XDG_CONFIG_HOME": home + "/config", "XDG_STATE_HOME": home + "/state", "XDG_DATA_HOME": home + "/data",
      // The local sandbox's record stays in the test's directory; its server stops once the
      // directory (and so the record) is removed.
      "XDG_RUNTIME_DIR": home + "/run", "LANG": "C.UTF-8",
    ]
  }

  /// Points every service at a served sandbox (the `local` environment, with its URLs overridden).
  package init(server: SandboxProcess) throws {
    try self.init()
    environment["DECK_ENV"] = "local"
    for variable in Registry.overrideVariables { environment[variable] = server.url }
    // The operator endpoints' token, as `serve` printed it on its second line.
    environment["DECK_SANDBOX_ADMIN_TOKEN"] = server.adminToken
  }

  package var configDirectory: String { home + "/config/deck" }
  package var tokenFile: String { configDirectory + "/tokens.json" }

  package struct Result {
    package var status: Int32
    package var stdout: String
    package var stderr: String
    package var all: String { stdout + stderr }
  }

  @discardableResult
  package func run(_ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:]) throws
    -> Result
  {
    try Self.execute(Self.binary, arguments, stdin: stdin, environment: environment.merging(extra) { $1 }, in: home)
  }

  /// Runs a program to its end (two minutes at most) and returns its status and output.
  package static func execute(
    _ executable: String, _ arguments: [String], stdin: String?, environment: [String: String], in directory: String,
    timeout: TimeInterval = 120
  ) throws -> Result {
    try start(executable, arguments, stdin: stdin, environment: environment, in: directory).finish(timeout: timeout)
  }

  /// Starts a program; `finish` waits for it.
  package static func start(
    _ executable: String, _ arguments: [String], stdin: String?, environment: [String: String], in directory: String
  ) throws -> ChildProcess {
    try ChildProcess(executable, arguments, environment: environment, directory: directory, stdin: stdin)
  }

  /// Files deck created under HOME (for tests that check nothing was written).
  package func createdFiles() -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: home)
    var files: [String] = []
    while let path = enumerator?.nextObject() as? String { files.append(path) }
    return files
  }
}

extension ChildProcess {
  /// Waits for the end (killing the process past `timeout`) and returns what it printed.
  package func finish(timeout: TimeInterval = 120) throws -> DeckCLI.Result {
    guard let status = wait(timeout: timeout) else {
      throw Failure(
        description:
          "\(commandLine) did not finish within \(timeout) s; stdout: \(stdout) stderr: \(stderr)"
      )
    }
    return DeckCLI.Result(status: status, stdout: stdout, stderr: stderr)
  }
}

/// A directory under the system's temporary directory, removed with everything in it when
/// this object goes away.
package final class TemporaryDirectory: Sendable {
  package let path: String

  /// `short`: eight random characters instead of a UUID (for paths that must stay short, as a
  /// Unix socket's does).
  package init(prefix: String, short: Bool = false) throws {
    let name = short ? String(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(8)) : UUID().uuidString
    path = NSTemporaryDirectory() + prefix + name
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// `deck sandbox serve --port 0` on a temporary database (or on `database`: a PostgreSQL URL
/// several servers share), stopped (and its directory removed) when the test ends.
package final class SandboxProcess: Sendable {
  package let child: ChildProcess
  package let url: String
  /// The admin token of the operator endpoints (serve's second stdout line).
  package let adminToken: String
  /// serve's first three stdout lines: the URL, `sandbox-admin-token=…`, `sandbox-anon-key=…`.
  package let startLines: [String]
  private let temporary: TemporaryDirectory
  package var directory: String { temporary.path }

  package init(database: String? = nil, extraArguments: [String] = []) throws {
    temporary = try TemporaryDirectory(prefix: "deck-sandbox-")
    let directory = temporary.path
    child = try ChildProcess(
      DeckCLI.binary,
      ["sandbox", "serve", "--port", "0", "--database", database ?? directory + "/sandbox.sqlite"] + extraArguments,
      environment: ["HOME": directory, "XDG_CONFIG_HOME": directory + "/config", "XDG_DATA_HOME": directory + "/data"],
      directory: directory)
    startLines = child.lines(3, timeout: 60)
    let tokenPrefix = "sandbox-admin-token="
    guard let line = startLines.first, line.hasPrefix("http://127.0.0.1:"), startLines.count == 3,
      startLines[1].hasPrefix(tokenPrefix)
    else {
      child.signal(SIGKILL)
      throw SandboxStartError(output: child.stdout + child.stderr)
    }
    url = line.trimmingCharacters(in: .whitespaces)
    adminToken = String(startLines[1].dropFirst(tokenPrefix.count))
  }

  deinit {
    if child.isRunning {
      child.signal(SIGINT)
      _ = child.wait(timeout: 10)
    }
  }

  package struct SandboxStartError: Error { var output: String }
}

/// Polls `condition` every 50 ms until it holds or `timeout` passes; returns whether it held.
/// For waits on something another process does (no fixed sleeps).
package func eventually(timeout: TimeInterval = 30, _ condition: () throws -> Bool) rethrows -> Bool {
  let deadline = Date().addingTimeInterval(timeout)
  while Date() < deadline {
    if try condition() { return true }
    usleep(50_000)
  }
  return try condition()
}

/// Decodes stdout as JSON.
package func json(_ text: String) throws -> Any {
  try JSONSerialization.jsonObject(with: Data(text.utf8))
}

extension Registry {
  /// `DECK_<SERVICE>_URL` of every service deck's modules declare: the variables that point a
  /// whole environment at one server.
  package static var overrideVariables: [String] { modules.services.map(\.overrideVariable) }
}
