import DeckCore
import DeckSupport
import FoundationEssentials
import SandboxLaunch

/// A sandbox database as `deck-sandbox db-info` reports it.
struct SandboxDatabaseInfo: Decodable, Sendable, Equatable {
  /// Bytes on disk, the write-ahead log included.
  var size: Int64
  /// The schema migrations recorded in the database.
  var appliedMigrations: [String]
  /// The schema migrations this deck knows, in order.
  var knownMigrations: [String]

  /// Asks the server program what is in the database at `path`, read only (nil: no file).
  static func read(path: String, program: String) throws -> SandboxDatabaseInfo? {
    let (status, data, message) = try LocalProcess.capture(
      program, arguments: ["db-info", "--db", path], environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
    guard status == 0 else {
      throw DeckError.failure(
        TerminalText.sanitize(String(decoding: message, as: UTF8.self)).trimming(.whitespacesAndNewlines))
    }
    return try JSONDecoder().decode(SandboxDatabaseInfo?.self, from: data)
  }
}

/// The local sandbox's process, from its runtime record.
enum LocalSandboxCheck {
  /// `record`: the record as read (nil: none); `alive`: whether its pid lives; `build`: this
  /// deck's server program's identity.
  static func evaluate(record: LocalSandboxRecord?, alive: Bool, build: String?, log: String, now: Date = Date())
    -> DoctorCheck
  {
    let name = "local sandbox"
    guard let record else { return .ok(name, "not running (the first command that needs it starts it)") }
    guard alive else {
      return .warning(
        name, "its record names pid \(record.pid), which is gone (it crashed or was killed)",
        fix: "nothing: the next command starts a new one; see \(log)")
    }
    let uptime = max(0, Int(now.timeIntervalSince1970 - record.startedAt))
    let idle = record.idleTimeout == 0 ? "never stops by itself" : "stops after \(record.idleTimeout) s idle"
    let detail = "pid \(record.pid) at \(record.url), up \(uptime) s, \(idle); log \(log)"
    if let build, record.build != build {
      return .warning(name, "\(detail); started by another build of deck", fix: "nothing: the next command replaces it")
    }
    return .ok(name, detail)
  }
}

/// The local sandbox's database: where it is, how big, and which schema it has.
enum SandboxCheck {
  /// `directoryProblem`: what `SecureDirectory.check` says about the data directory.
  /// `info`: what is on disk (nil: no database yet), or why it could not be read.
  static func evaluate(path: String, directoryProblem: DeckError?, info: Result<SandboxDatabaseInfo?, DeckError>)
    -> DoctorCheck
  {
    let name = "sandbox"
    if let directoryProblem { return .failure(name, directoryProblem) }
    let found: SandboxDatabaseInfo
    switch info {
    case .failure(let error):
      return .error(
        name, "\(path): cannot read it: \(error.message)",
        fix: "move it away (mv \(path) \(path).old) and deck creates a new one; or start over: deck sandbox reset")
    case .success(nil):
      return .ok(name, "\(path): not created yet (the sandbox environment creates it on first use)")
    case .success(let info?):
      found = info
    }
    let known = Set(found.knownMigrations)
    let unknown = found.appliedMigrations.filter { !known.contains($0) }
    let applied = found.appliedMigrations.count - unknown.count
    let latest = found.appliedMigrations.last { known.contains($0) } ?? "none"
    let detail =
      "\(path): \(DoctorFormat.size(found.size)), schema version \(applied) of \(found.knownMigrations.count) (latest \(latest))"
    if !unknown.isEmpty {
      return .warning(
        name, "\(detail); written by a newer deck (unknown migrations: \(unknown.joined(separator: ", ")))",
        fix: "use the newer deck, or move it away: mv \(path) \(path).old")
    }
    if applied < found.knownMigrations.count {
      return .ok(name, "\(detail); deck brings it up to date on next use")
    }
    return .ok(name, detail)
  }
}
