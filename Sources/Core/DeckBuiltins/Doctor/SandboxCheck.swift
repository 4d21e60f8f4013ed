import DeckCore
import DeckSupport

/// The embedded sandbox's database: where it is, how big, and which schema it has.
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
