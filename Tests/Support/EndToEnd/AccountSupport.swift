import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Steps of the workspace flows, through the real binary and the sandbox's API only.
extension DeckCLI {
  /// A deck signed in to a fresh served sandbox as one of its seeded users (password `sandbox`).
  package static func signedIn(_ email: String = "athlete@sandbox.test") throws -> (SandboxProcess, DeckCLI) {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let login = try deck.run(["auth", "login", "--email", email, "--password-stdin"], stdin: "sandbox\n")
    #expect(login.status == 0, "login \(email): \(login.stderr)")
    return (server, deck)
  }

  /// Signs up (and in) as `email`.
  package func signUp(_ email: String) throws {
    let result = try run(["auth", "signup", "--email", email, "--password-stdin"], stdin: "pw-123456\n")
    #expect(result.status == 0, "signup \(email): \(result.stderr)")
  }

  /// Signs in as `email` (an account made by `signUp`).
  package func logIn(_ email: String) throws {
    let result = try run(["auth", "login", "--email", email, "--password-stdin"], stdin: "pw-123456\n")
    #expect(result.status == 0, "login \(email): \(result.stderr)")
  }

  /// The route `deck workspace route` prints.
  package func route(_ extra: [String] = []) throws -> String {
    let result = try run(["workspace", "route"] + extra)
    #expect(result.status == 0, "\(result.stderr)")
    return Self.field("route", in: result.stdout) ?? ""
  }

  /// `deck workspace access --json`.
  package func access() throws -> [String: Any] {
    let result = try run(["workspace", "access", "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    return try #require(try json(result.stdout) as? [String: Any])
  }

  /// `deck sandbox inspect workspace EMAIL --json`.
  package func inspect(_ email: String) throws -> [String: Any] {
    let result = try run(["sandbox", "inspect", "workspace", email, "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    return try #require(try json(result.stdout) as? [String: Any])
  }

  /// The join links in the outbox for `email`, oldest first.
  package func joinLinks(to email: String) throws -> [String] {
    let result = try run(["sandbox", "outbox", "--to", email, "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    let emails = try #require(try json(result.stdout) as? [[String: Any]])
    return emails.compactMap { $0["joinLink"] as? String }
  }

  /// The id of the canonical brokerage named exactly `name`.
  package func brokerageID(_ name: String) throws -> String {
    let result = try run(["brokerage", "search", name, "--json", "--limit", "1"])
    let rows = try #require(try json(result.stdout) as? [[String: Any]])
    #expect(rows.first?["name"] as? String == name)
    return try #require(rows.first?["id"] as? String)
  }

  /// `deck workspace onboard` with the required flags plus `extra`.
  @discardableResult
  package func onboard(_ extra: [String], industry: String = "Real Estate", useCase: String? = "solo") throws -> Result
  {
    var arguments = [
      "workspace", "onboard", "--first-name", "Ada", "--last-name", "Lovelace", "--workspace-name", "Ada Realty",
      "--industry", industry,
    ]
    if let useCase { arguments += ["--use-case", useCase] }
    return try run(arguments + extra)
  }

  /// A value of `deck … ` fields output (`key  value` lines).
  package static func field(_ key: String, in text: String) -> String? {
    for line in text.split(separator: "\n") where line.hasPrefix(key + " ") {
      return line.dropFirst(key.count).trimmingCharacters(in: .whitespaces)
    }
    return nil
  }

  /// Starts deck without waiting for it (for `subscribe --wait`).
  package func start(_ arguments: [String]) throws -> RunningDeck {
    try RunningDeck(arguments: arguments, environment: environment, directory: home)
  }
}

/// A deck process in the background whose stdout is read as it comes.
package final class RunningDeck {
  package let child: ChildProcess
  package var isRunning: Bool { child.isRunning }
  package var processIdentifier: pid_t { child.processIdentifier }
  package func interrupt() { child.interrupt() }

  package init(arguments: [String], environment: [String: String], directory: String) throws {
    child = try ChildProcess(DeckCLI.binary, arguments, environment: environment, directory: directory)
  }

  /// The first stdout line (waits for it, a minute at most; empty if none came).
  package func firstLine(timeout: TimeInterval = 60) -> String {
    child.lines(1, timeout: timeout).first ?? ""
  }

  /// The rest of stdout after the first line (call after `wait`).
  package func rest() -> String {
    let text = child.stdout
    guard let newline = text.firstIndex(of: "\n") else { return "" }
    return String(text[text.index(after: newline)...])
  }

  /// Waits for exit (killing it past the timeout: status -1); returns the status and stderr.
  package func wait(timeout: TimeInterval = 60) -> (status: Int32, stderr: String) {
    (child.wait(timeout: timeout) ?? -1, child.stderr)
  }
}

/// Plain HTTP for what a browser does: open the checkout page and press Pay.
package enum Browser {
  package static func request(_ url: String, method: String = "GET") throws -> (status: Int, body: String) {
    var request = URLRequest(url: try #require(URL(string: url)))
    request.httpMethod = method
    if method == "POST" {
      request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
      request.httpBody = Data()
    }
    final class Box: @unchecked Sendable {
      var status = 0
      var body = ""
    }
    let box = Box()
    let done = DispatchSemaphore(value: 0)
    URLSession.shared.dataTask(with: request) { data, response, _ in
      box.status = (response as? HTTPURLResponse)?.statusCode ?? 0
      box.body = data.map { String(decoding: $0, as: UTF8.self) } ?? ""
      done.signal()
    }.resume()
    _ = done.wait(timeout: .now() + 30)
    return (box.status, box.body)
  }
}
