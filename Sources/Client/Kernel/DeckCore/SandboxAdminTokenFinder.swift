import DeckConfig
import DeckSupport
import FoundationEssentials
import SandboxLaunch

/// Finds the admin token of a sandbox at a loopback URL, for `deck env add NAME --sandbox URL`,
/// `deck env set NAME --all URL` and the operator commands of an environment that holds none: from the servers this user started (a running `deck
/// sandbox serve`'s record in the runtime directory, the local sandbox's record) or another
/// environment that points at the same server. No token is ever sent to find it: the server
/// at URL proves which token it holds (``SandboxProof``: it answers a fresh nonce's HMAC under
/// its token), and a token is taken only when that proof matches. Another user's process
/// listening at the same port learns nothing.
public struct SandboxAdminTokenFinder {
  /// A token and where it was found, for the message.
  public struct Candidate: Equatable, Sendable {
    public var token: String
    public var source: String

    public init(token: String, source: String) {
      self.token = token
      self.source = source
    }
  }

  public enum Outcome: Equatable, Sendable {
    case found(Candidate)
    /// Why no token was taken, as the message says it.
    case notFound(String)
  }

  /// The tokens to try for the server at an address, most likely first.
  public var candidates: (_ address: LoopbackAddress) -> [Candidate]
  /// What the server at an address answers to the proof request for a nonce: its status and
  /// the proof in its body; nil when nothing answers.
  public var challenge: (_ address: LoopbackAddress, _ nonce: String) -> (status: Int, proof: String?)?

  public init(
    candidates: @escaping (_ address: LoopbackAddress) -> [Candidate],
    challenge: @escaping (_ address: LoopbackAddress, _ nonce: String) -> (status: Int, proof: String?)?
  ) {
    self.candidates = candidates
    self.challenge = challenge
  }

  public func find(url: String) -> Outcome {
    guard let parsed = ParsedURL(url), parsed.scheme == "http", let hosts = Self.loopbackHosts(parsed.host) else {
      return .notFound(
        "deck takes the admin token only from a sandbox of yours on http://127.0.0.1, http://[::1] or localhost")
    }
    guard AdminOrigin.isOrigin(url) else {
      return .notFound("the URL has a path, and the operator endpoints are at the server's root")
    }
    let port = parsed.port ?? 80
    var answered: Int?
    for address in hosts.compactMap({ LoopbackAddress(host: $0, port: port) }) {
      let nonce = SandboxProof.nonce()
      guard let answer = challenge(address, nonce) else { continue }
      answered = answer.status
      guard answer.status == 200, let proof = answer.proof else { continue }
      let usable = candidates(address).filter {
        !$0.token.isEmpty && $0.token.allSatisfy { $0.isASCII && !$0.isWhitespace }
      }
      if let candidate = usable.first(where: { SandboxProof.answer(adminToken: $0.token, nonce: nonce) == proof }) {
        return .found(candidate)
      }
    }
    guard let answered else {
      return .notFound(
        "nothing answers at \(url) (start it with: \(URLPolicy.serveCommand(scheme: "http", port: port)))")
    }
    guard answered == 200 else {
      return .notFound(
        "the server at \(url) is not a deck sandbox (\(SandboxProof.path) answered HTTP \(answered))")
    }
    return .notFound(
      "the sandbox at \(url) was not started by `deck sandbox serve` of this user, so deck cannot read its admin token")
  }

  /// The loopback addresses a URL's host names: both for `localhost`; nil for any other host.
  static func loopbackHosts(_ host: String) -> [String]? {
    switch host {
    case "localhost": LoopbackAddress.hosts
    case "127.0.0.1": ["127.0.0.1"]
    case "[::1]", "::1": ["::1"]
    default: nil
    }
  }

  /// The finder of this session: its runtime directory, local sandbox and config file.
  public static func live(session: DeckSession, file: ConfigFile) -> SandboxAdminTokenFinder {
    let localSandbox = session.localSandbox
    return SandboxAdminTokenFinder(
      candidates: { address in
        var found: [Candidate] = []
        if let directory = try? localSandbox.runtimeDirectory(),
          let record = LocalSandboxRecord.read(
            SandboxRuntime.servedRecordPath(directory: directory, host: address.host, port: address.port)),
          record.serverRuns
        {
          found.append(Candidate(token: record.adminToken, source: "the `deck sandbox serve` on \(address)"))
        }
        if let record = localSandbox.current(), record.address == address {
          found.append(Candidate(token: record.adminToken, source: "the local sandbox"))
        }
        let resolver = EnvironmentResolver(file: file, processEnvironment: [:])
        for definition in resolver.definitions {
          guard let token = definition.sandboxAdminToken,
            definition.urls.values.contains(where: {
              guard let other = ParsedURL($0) else { return false }
              return AdminOrigin.isOrigin($0) && other.scheme == "http" && (other.port ?? 80) == address.port
                && Self.loopbackHosts(other.host)?.contains(address.host) == true
            })
          else { continue }
          found.append(Candidate(token: token, source: "environment \"\(definition.name)\""))
        }
        return found
      },
      challenge: { address, nonce in
        LocalProcess.request(address, path: SandboxProof.path + "?nonce=" + nonce, timeout: .seconds(2)).map {
          ($0.status, SandboxProof.proof(inAnswer: $0.body))
        }
      })
  }
}

/// Base URLs with no path: where a sandbox's operator endpoints are.
public enum AdminOrigin {
  public static func isOrigin(_ url: String) -> Bool {
    let trimmed = url.hasSuffix("/") ? String(url.dropLast()) : url
    guard let separator = trimmed.firstRange(of: "://") else { return false }
    return !trimmed[separator.upperBound...].contains(where: { "/?#".contains($0) })
  }
}
