import DeckConfig
import DeckCore
import DeckSupport
import FoundationEssentials
import SandboxLaunch

/// Finds the admin token of a sandbox at a loopback URL, for `deck env add NAME --sandbox URL`
/// and `deck env set NAME --all URL`: from the servers this user started (a running `deck
/// sandbox serve`'s record in the runtime directory, the local sandbox's record) or another
/// environment that points at the same server. A token is taken only when the server at URL
/// accepts it (`GET /__sandbox/v1/info` answers 200 with it).
struct SandboxAdminTokenFinder {
  /// A token and where it was found, for the message.
  struct Candidate: Equatable {
    var token: String
    var source: String
  }

  enum Outcome: Equatable {
    case found(Candidate)
    /// Why no token was taken, as the message says it.
    case notFound(String)
  }

  /// The tokens to try for the server on `port`, most likely first.
  var candidates: (_ port: Int) -> [Candidate]
  /// The status of `GET /__sandbox/v1/info` on 127.0.0.1:port, with a bearer token or none;
  /// nil when nothing answers.
  var probe: (_ port: Int, _ bearer: String?) -> Int?

  static let infoPath = "/__sandbox/v1/info"

  func find(url: String) -> Outcome {
    guard let parsed = ParsedURL(url), parsed.scheme == "http",
      parsed.host == "localhost" || parsed.host == "127.0.0.1"
    else {
      return .notFound("deck takes the admin token only from a sandbox of yours on http://127.0.0.1 or localhost")
    }
    guard AdminOrigin.isOrigin(url) else {
      return .notFound("the URL has a path, and the operator endpoints are at the server's root")
    }
    let port = parsed.port ?? 80
    guard let open = probe(port, nil) else {
      return .notFound(
        "nothing answers at \(url) (start it with: \(URLPolicy.serveCommand(scheme: "http", port: port)))")
    }
    guard open == 401 else {
      return .notFound("the server at \(url) is not a deck sandbox (\(Self.infoPath) answered HTTP \(open))")
    }
    let usable = candidates(port).filter { !$0.token.isEmpty && $0.token.allSatisfy { $0.isASCII && !$0.isWhitespace } }
    var tried = Set<String>()
    for candidate in usable where tried.insert(candidate.token).inserted {
      if probe(port, candidate.token) == 200 { return .found(candidate) }
    }
    return .notFound(
      "the sandbox at \(url) was not started by `deck sandbox serve` of this user, so deck cannot read its admin token")
  }

  /// The finder of this session: its runtime directory, local sandbox and config file.
  static func live(session: DeckSession, file: ConfigFile) -> SandboxAdminTokenFinder {
    let localSandbox = session.localSandbox
    return SandboxAdminTokenFinder(
      candidates: { port in
        var found: [Candidate] = []
        let served = SandboxRuntime.servedRecordPath(directory: localSandbox.runtimeDirectory, port: port)
        if let record = LocalSandboxRecord.read(served), LocalProcess.isAlive(record.pid) {
          found.append(Candidate(token: record.adminToken, source: "the `deck sandbox serve` on port \(port)"))
        }
        if let record = localSandbox.current(), ParsedURL(record.url)?.port == port {
          found.append(Candidate(token: record.adminToken, source: "the local sandbox"))
        }
        let resolver = EnvironmentResolver(file: file, processEnvironment: [:])
        for definition in resolver.definitions {
          guard let token = definition.sandboxAdminToken,
            definition.urls.values.contains(where: {
              guard let other = ParsedURL($0) else { return false }
              return AdminOrigin.isOrigin($0) && other.scheme == "http" && (other.port ?? 80) == port
                && (other.host == "localhost" || other.host == "127.0.0.1")
            })
          else { continue }
          found.append(Candidate(token: token, source: "environment \"\(definition.name)\""))
        }
        return found
      },
      probe: { port, bearer in
        LocalProcess.probe(port: port, path: infoPath, timeout: .seconds(2), bearer: bearer)
      })
  }
}

/// Base URLs with no path: where a sandbox's operator endpoints are.
enum AdminOrigin {
  static func isOrigin(_ url: String) -> Bool {
    let trimmed = url.hasSuffix("/") ? String(url.dropLast()) : url
    guard let separator = trimmed.firstRange(of: "://") else { return false }
    return !trimmed[separator.upperBound...].contains(where: { "/?#".contains($0) })
  }
}

/// `deck env add NAME --sandbox URL` and `deck env set NAME --all URL`: what they say about the
/// admin token.
enum SandboxPointing {
  /// Prints the note on stderr: for a person always; with another format only when the token
  /// is missing (something to do).
  static func tell(_ outcome: SandboxAdminTokenFinder.Outcome, environment name: String, output: Output) {
    if case .found = outcome, !output.isHuman { return }
    output.info(note(environment: name, outcome: outcome))
  }

  /// The note after the environment is saved: the token taken, or exactly how to give it.
  static func note(environment name: String, outcome: SandboxAdminTokenFinder.Outcome) -> String {
    switch outcome {
    case .found(let candidate):
      return
        "Saved the sandbox's admin token (from \(candidate.source)), so `deck --env \(name) sandbox …` works."
    case .notFound(let reason):
      return
        "No admin token saved: \(reason). Give it with: deck env set \(name) \(ConfigFile.sandboxAdminTokenKey)=TOKEN (TOKEN: from the line sandbox-admin-token=TOKEN that `deck sandbox serve` prints)"
    }
  }
}
