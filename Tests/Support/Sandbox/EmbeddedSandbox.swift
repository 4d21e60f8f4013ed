import Foundation
import SandboxApp
import SandboxKit

/// A sandbox server in the test process, spoken to over real HTTP by curl (which can send any
/// Host, Origin or method): the sandbox's own tests and the features' route tests use it.
package struct EmbeddedSandbox: Sendable {
  package struct Reply {
    package var status: Int
    package var body: String
    package var headers: String
    package var curlExit: Int32

    package var json: [String: Any]? {
      (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
    }

    package var jsonArray: [[String: Any]]? {
      (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [[String: Any]]
    }
  }

  /// Runs curl and returns the status, body and response headers. Waits off the cooperative
  /// thread pool, which the in-process server needs to answer.
  package static func curl(_ arguments: [String]) async throws -> Reply {
    let directory = NSTemporaryDirectory() + "deck-curl-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    process.arguments =
      [
        "-s", "-o", directory + "/body", "-D", directory + "/headers", "-w", "%{http_code}", "--max-time", "20",
      ] + arguments
    _ = FileManager.default.createFile(atPath: directory + "/code", contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: directory + "/code"))
    process.standardError = FileHandle.nullDevice
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      process.terminationHandler = { _ in continuation.resume() }
      do { try process.run() } catch { continuation.resume() }
    }
    let code = (try? String(contentsOfFile: directory + "/code", encoding: .utf8)) ?? ""
    return Reply(
      status: Int(code) ?? 0,
      body: (try? String(contentsOfFile: directory + "/body", encoding: .utf8)) ?? "",
      headers: (try? String(contentsOfFile: directory + "/headers", encoding: .utf8)) ?? "",
      curlExit: process.isRunning ? -1 : process.terminationStatus)
  }

  package let sandbox: RunningSandbox
  package let directory: ScratchDirectory
  package var base: String { sandbox.baseURL.absoluteString }
  package var auth: [String] { ["-H", "Authorization: Bearer \(sandbox.adminToken)"] }
  package var json: [String] { ["-H", "Content-Type: application/json"] }

  package func admin(_ method: String, _ path: String, body: String? = nil, extra: [String] = []) async throws -> Reply
  {
    try await Self.curl(
      ["-X", method] + auth + json + (body.map { ["--data-binary", $0] } ?? []) + extra + [base + path])
  }

  package func addFault(_ body: String) async throws -> Reply {
    try await admin("POST", "/__sandbox/v1/faults", body: body)
  }

  package func stop() async {
    await sandbox.stop()
    directory.cleanUp()
  }

  /// A server with `features`, on a database in a scratch directory of its own.
  package static func start(publicURL: String? = nil, features: [any SandboxFeature.Type]) async throws
    -> EmbeddedSandbox
  {
    let directory = try ScratchDirectory()
    let sandbox = try await SandboxServer.start(
      .init(databasePath: directory.path("sandbox.sqlite"), publicURL: publicURL, features: features))
    return EmbeddedSandbox(sandbox: sandbox, directory: directory)
  }
}
