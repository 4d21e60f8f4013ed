import DeckSupport
import FoundationEssentials
import SandboxLaunch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The sandbox server behind deck's default environment: a `deck-sandbox` process that the
/// first command needing it starts, detached, on a loopback port, for this user and database.
/// Later commands find it through its ``LocalSandboxRecord`` in the runtime directory and reuse
/// it; it exits by itself after its idle timeout. Starting happens under a lock, so parallel
/// first commands start one server. A server that died, hangs, or belongs to another build of
/// deck is replaced by the next command, which says so.
///
/// Nothing another user made is trusted: the runtime directory and the record are checked
/// before they are read (``SandboxRuntime``, ``LocalSandboxRecord/read(_:)``), the server must
/// prove it holds the record's admin token (``SandboxProof``) before deck uses it, and only a
/// process that is the record's server (its pid and its start) is ever signalled.
public struct LocalSandbox: Sendable {
  /// The variable that sets the idle timeout in seconds (0: never).
  public static let idleTimeoutVariable = "DECK_SANDBOX_IDLE_TIMEOUT"
  /// The variable that names the server program (default: `deck-sandbox` beside deck, else on PATH).
  public static let programVariable = "DECK_SANDBOX_PROGRAM"
  /// The server program's name. It is installed beside deck and is not a plugin, though it
  /// is named as one would be (``Plugins`` skips it).
  public static let programName = "deck-sandbox"
  public static let defaultIdleTimeout = 900

  public let database: String
  /// Where the server's output goes: `$XDG_STATE_HOME/deck/sandbox.log`.
  public let logFile: String
  public let idleTimeout: Int
  private let stateDirectory: String
  private let environment: [String: String]

  public init(paths: DeckPaths, environment: [String: String]) {
    database = paths.sandboxDatabase
    stateDirectory = paths.stateDirectory
    logFile = paths.stateDirectory + "/sandbox.log"
    self.environment = environment
    idleTimeout =
      environment[Self.idleTimeoutVariable].flatMap { Int($0) }.map { max(0, $0) } ?? Self.defaultIdleTimeout
  }

  /// The runtime directory, checked (and made) before anything in it is read: see
  /// ``SandboxRuntime/directory(environment:note:)``.
  public func runtimeDirectory(note: (String) -> Void = { _ in }) throws -> String {
    try SandboxRuntime.directory(environment: environment, note: note)
  }

  /// The record of this database's server in `directory`: `sandbox-<hash of the database path>.json`.
  public func recordPath(in directory: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in database.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return directory + "/sandbox-" + String(hash, radix: 16) + ".json"
  }

  /// The running server's record, if there is one and its server runs (nothing is started).
  public func current() -> LocalSandboxRecord? {
    guard let directory = try? runtimeDirectory(), let record = LocalSandboxRecord.read(recordPath(in: directory)),
      record.serverRuns
    else { return nil }
    return record
  }

  /// The server program deck starts.
  public func program() throws -> String {
    if let explicit = environment[Self.programVariable], !explicit.isEmpty {
      guard LocalProcess.isExecutableFile(explicit) else {
        throw DeckError.configuration(
          "\(Self.programVariable)=\(explicit) is not an executable file.",
          hint: "Point it at a deck-sandbox binary, or unset it to use the one installed beside deck.")
      }
      return explicit
    }
    var candidates: [String] = []
    if let own = LocalProcess.ownExecutable(), let slash = own.lastIndex(of: "/") {
      candidates.append(own[...slash] + Self.programName)
    }
    candidates += (environment["PATH"] ?? "").split(separator: ":").map { "\($0)/\(Self.programName)" }
    guard let found = candidates.first(where: LocalProcess.isExecutableFile) else {
      throw DeckError(
        .unavailable(status: nil), "Cannot find deck-sandbox, the sandbox server program, beside deck or on PATH.",
        hint:
          "Install it: the deck-sandbox package (apt install deck-sandbox), or scripts/install, which installs both programs; or set \(Self.programVariable)."
      )
    }
    return found
  }

  /// The running server, started (or replaced) if needed. `note` gets what the user should
  /// know: a server that had died, hung or belonged to another build, a runtime directory that
  /// moved.
  public func ensure(note: (String) -> Void) async throws -> LocalSandboxRecord {
    let program = try program()
    let build = ProgramIdentity.of(program) ?? program
    let directory = try runtimeDirectory(note: note)
    let recordPath = recordPath(in: directory)
    if let record = usable(recordPath, build: build) { return record }
    return try await FileLock(for: recordPath).withLock(timeout: .seconds(60)) {
      if let record = usable(recordPath, build: build) { return record }
      if let old = LocalSandboxRecord.read(recordPath) {
        if !old.serverRuns {
          note(
            "The local sandbox (pid \(old.pid)) had stopped; starting a new one (its log: \(logFile)).")
        } else if old.build != build {
          note("Replacing the local sandbox of another deck build (pid \(old.pid)).")
          LocalProcess.terminate(old.pid, start: old.processStart)
        } else {
          note("The local sandbox (pid \(old.pid)) did not answer; stopped it and starting a new one.")
          LocalProcess.terminate(old.pid, start: old.processStart, grace: .zero)
        }
      }
      // Whatever was there (a record of a server that ended, another user's file) goes.
      unlink(recordPath)
      return try await start(program: program, build: build, recordPath: recordPath)
    }
  }

  /// Stops the running server; returns its record, or nil when none ran.
  public func stop() async throws -> LocalSandboxRecord? {
    let recordPath = recordPath(in: try runtimeDirectory())
    guard access(recordPath, F_OK) == 0 else { return nil }
    return try await FileLock(for: recordPath).withLock(timeout: .seconds(60)) {
      guard let record = LocalSandboxRecord.read(recordPath) else { return nil }
      defer { unlink(recordPath) }
      guard record.serverRuns else { return nil }
      LocalProcess.terminate(record.pid, start: record.processStart)
      return record
    }
  }

  /// The record if its server runs, is of this build and proves within 2 s that it holds the
  /// record's admin token.
  private func usable(_ recordPath: String, build: String) -> LocalSandboxRecord? {
    guard let record = LocalSandboxRecord.read(recordPath), record.serverRuns, record.build == build,
      let address = record.address,
      case .proved = LocalProcess.proof(of: record.adminToken, at: address, timeout: .seconds(2))
    else { return nil }
    return record
  }

  private func start(program: String, build: String, recordPath: String) async throws -> LocalSandboxRecord {
    try AtomicFile.ensureDirectory(stateDirectory)
    // One old generation of the log is kept.
    var status = stat()
    if stat(logFile, &status) == 0, status.st_size > 10_000_000 {
      rename(logFile, logFile + ".1")
    }
    // A clean environment: nothing of the caller's (tokens, secrets) reaches the server.
    var clean = ["PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"]
    if let home = environment["HOME"] { clean["HOME"] = home }
    let pid = try LocalProcess.spawnDetached(
      program,
      arguments: [
        "serve", "--port", "0", "--db", database, "--idle-timeout", String(idleTimeout), "--record", recordPath,
        "--build", build,
      ], environment: clean, log: logFile)
    let deadline = ContinuousClock.now + .seconds(30)
    while ContinuousClock.now < deadline {
      if let record = LocalSandboxRecord.read(recordPath), record.pid == pid { return record }
      guard LocalProcess.isAlive(pid) else { break }
      try await Task.sleep(for: .milliseconds(5))
    }
    if LocalProcess.isAlive(pid) { kill(pid, SIGKILL) }
    throw DeckError(
      .unavailable(status: nil), "The local sandbox did not start. The end of its log:\n\(logTail())",
      hint: "Its log is \(logFile); its database is \(database) (`deck sandbox reset` starts it over).")
  }

  private func logTail() -> String {
    let text = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").suffix(5).map { "  " + TerminalText.sanitize(String($0)) }.joined(
      separator: "\n")
  }
}
