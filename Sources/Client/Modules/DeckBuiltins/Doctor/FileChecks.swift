import DeckAuth
import DeckConfig
import DeckSupport
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `stat` says about one of deck's files or directories (symbolic links followed).
struct FileFacts: Sendable, Equatable {
  var owner: UInt32
  /// The permission bits.
  var mode: UInt32
  var isDirectory: Bool

  /// nil when nothing is there.
  static func read(_ path: String) -> FileFacts? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return FileFacts(
      owner: UInt32(info.st_uid), mode: UInt32(info.st_mode & 0o777), isDirectory: info.st_mode & S_IFMT == S_IFDIR)
  }

  static var currentUser: UInt32 { UInt32(geteuid()) }
}

/// The config directory, config.yml and tokens.json: present, parseable, owned by the user,
/// and not open to other users.
enum FileChecks {
  /// `problem`: what `SecureDirectory.check` says about the directory (nil: safe).
  static func configDirectory(path: String, facts: FileFacts?, problem: DeckError?) -> DoctorCheck {
    let name = "config directory"
    if let problem { return .failure(name, problem) }
    guard let facts else {
      return .ok(name, "\(path): not created yet (deck creates it, mode 700, when it first saves)")
    }
    return .ok(name, "\(path): yours, mode \(DoctorFormat.mode(facts.mode))")
  }

  static func configFile(path: String, facts: FileFacts?, user: UInt32, parsed: Result<ConfigFile, DeckError>)
    -> DoctorCheck
  {
    let name = "config file"
    guard let facts else { return .ok(name, "\(path): none yet; the built-in environments apply") }
    if let problem = ownership(path: path, facts: facts, user: user, name: name) { return problem }
    if facts.mode & 0o022 != 0 {
      return .error(
        name, "\(path): mode \(DoctorFormat.mode(facts.mode)), so other users can change it",
        fix: "chmod 600 \(path)")
    }
    let file: ConfigFile
    switch parsed {
    case .failure(let error): return .failure(name, error)
    case .success(let parsed): file = parsed
    }
    let holdsToken = file.environments.contains { $0.entry.sandboxAdminToken != nil }
    if holdsToken && facts.mode & 0o044 != 0 {
      return .warning(
        name,
        "\(path): mode \(DoctorFormat.mode(facts.mode)), so other users can read the sandbox admin token in it",
        fix: "chmod 600 \(path)")
    }
    let environments = file.environments.count
    var detail = "\(path): parses, \(environments) environment\(environments == 1 ? "" : "s") added or changed"
    if let current = file.current { detail += ", current: \(current)" }
    return .ok(name, detail)
  }

  /// `readProblem`: what reading the token store said (its mode check, or a corrupt file).
  static func tokenFile(path: String, facts: FileFacts?, user: UInt32, readProblem: DeckError?) -> DoctorCheck {
    let name = "token file"
    guard let facts else { return .ok(name, "\(path): none yet (no account has signed in)") }
    if let problem = ownership(path: path, facts: facts, user: user, name: name) { return problem }
    // The token store's own rules (mode 600, a file it can parse) decide the rest.
    if let readProblem { return .failure(name, readProblem) }
    return .ok(name, "\(path): yours, mode \(DoctorFormat.mode(facts.mode))")
  }

  private static func ownership(path: String, facts: FileFacts, user: UInt32, name: String) -> DoctorCheck? {
    guard facts.owner != user else { return nil }
    return .error(
      name, "\(path) belongs to user id \(facts.owner), not to you (\(user)), so its owner can read or replace it",
      fix: "chown \(user) \(path)  (or move it away)")
  }
}
