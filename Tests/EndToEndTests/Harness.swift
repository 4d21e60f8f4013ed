import Foundation
import Testing

/// Runs the built `deck` binary the way a user does: a fresh process, real files, real sockets.
struct DeckCLI {
  /// The `deck` next to the test bundle (SwiftPM builds it first: the test target depends on it).
  static let binary: String = {
    if let explicit = ProcessInfo.processInfo.environment["DECK_BINARY"] { return explicit }
    var directory = Bundle.main.bundleURL
    for _ in 0..<4 {
      let candidate = directory.appendingPathComponent("deck").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      directory.deleteLastPathComponent()
    }
    return Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("deck").path
  }()

  /// HOME, XDG directories and the config directory, all inside one temporary directory.
  let home: String
  var environment: [String: String]

  init() throws {
    home = NSTemporaryDirectory() + "deck-e2e-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    environment = [
      "HOME": home, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
      "XDG_CONFIG_HOME": home + "/config", "XDG_STATE_HOME": home + "/state", "XDG_DATA_HOME": home + "/data",
      "LANG": "C.UTF-8",
    ]
  }

  /// Points every service at a served sandbox (the `local` environment, with its URLs overridden).
  init(server: SandboxProcess) throws {
    try self.init()
    environment["DECK_ENV"] = "local"
    for service in ["FLYR", "KIOSK", "RECRUITING", "NUDGE", "AUTH", "GEOCODER"] {
      environment["DECK_\(service)_URL"] = server.url
    }
    // The operator endpoints' token, as `serve` printed it on its second line.
    environment["DECK_SANDBOX_ADMIN_TOKEN"] = server.adminToken
  }

  var configDirectory: String { home + "/config/deck" }
  var tokenFile: String { configDirectory + "/tokens.json" }

  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
    var all: String { stdout + stderr }
  }

  @discardableResult
  func run(_ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:]) throws -> Result {
    try Self.execute(Self.binary, arguments, stdin: stdin, environment: environment.merging(extra) { $1 }, in: home)
  }

  static func execute(
    _ executable: String, _ arguments: [String], stdin: String?, environment: [String: String], in directory: String
  ) throws -> Result {
    try start(executable, arguments, stdin: stdin, environment: environment, in: directory).finish()
  }

  /// A started process whose output goes to files; `finish` waits for it and reads them.
  struct Running {
    let process: Process
    let outPath: String
    let errPath: String

    func finish() -> Result {
      process.waitUntilExit()
      defer {
        try? FileManager.default.removeItem(atPath: outPath)
        try? FileManager.default.removeItem(atPath: errPath)
      }
      return Result(
        status: process.terminationStatus,
        stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
        stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }
  }

  static func start(
    _ executable: String, _ arguments: [String], stdin: String?, environment: [String: String], in directory: String
  ) throws -> Running {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    let outPath = directory + "/.out-\(UUID().uuidString)"
    let errPath = directory + "/.err-\(UUID().uuidString)"
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    let input = Pipe()
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    return Running(process: process, outPath: outPath, errPath: errPath)
  }

  /// Files deck created under HOME (for tests that check nothing was written).
  func createdFiles() -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: home)
    var files: [String] = []
    while let path = enumerator?.nextObject() as? String {
      if !path.hasPrefix(".out-") && !path.hasPrefix(".err-") { files.append(path) }
    }
    return files
  }
}

/// `deck sandbox serve --port 0` on a temporary database, stopped when the test ends.
final class SandboxProcess: @unchecked Sendable {
  let process = Process()
  let url: String
  /// The admin token of the operator endpoints (serve's second stdout line).
  let adminToken: String
  let directory: String

  init(extraArguments: [String] = []) throws {
    directory = NSTemporaryDirectory() + "deck-sandbox-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    process.executableURL = URL(fileURLWithPath: DeckCLI.binary)
    process.arguments = ["sandbox", "serve", "--port", "0", "--db", directory + "/sandbox.sqlite"] + extraArguments
    process.environment = [
      "HOME": directory, "XDG_CONFIG_HOME": directory + "/config", "XDG_DATA_HOME": directory + "/data",
    ]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    var buffer = Data()
    let deadline = Date().addingTimeInterval(60)
    while buffer.count(where: { $0 == UInt8(ascii: "\n") }) < 2 && Date() < deadline {
      let chunk = out.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      buffer += chunk
    }
    let lines = String(decoding: buffer, as: UTF8.self).split(separator: "\n").map(String.init)
    let line = lines.first ?? ""
    let tokenPrefix = "sandbox-admin-token="
    guard line.hasPrefix("http://127.0.0.1:"), lines.count >= 2, lines[1].hasPrefix(tokenPrefix) else {
      process.terminate()
      throw SandboxStartError(output: lines.joined(separator: "\n"))
    }
    url = line.trimmingCharacters(in: .whitespaces)
    adminToken = String(lines[1].dropFirst(tokenPrefix.count))
    self.output = out
  }

  /// serve's stdout, after the two lines read at start.
  let output: Pipe

  deinit {
    if process.isRunning {
      process.interrupt()
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(atPath: directory)
  }

  struct SandboxStartError: Error { var output: String }
}

/// Decodes stdout as JSON.
func json(_ text: String) throws -> Any {
  try JSONSerialization.jsonObject(with: Data(text.utf8))
}
