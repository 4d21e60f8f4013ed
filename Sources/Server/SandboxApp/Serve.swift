import ArgumentParser
import DeckSupport
import Foundation
import SandboxKit
import SandboxLaunch
import Synchronization

/// `deck-sandbox serve`: serves the sandbox until SIGINT, SIGTERM or the idle timeout.
///
/// Its first three stdout lines are the URL, `sandbox-admin-token=TOKEN` and
/// `sandbox-anon-key=KEY`. Started by deck on demand, it also writes a ``LocalSandboxRecord``
/// (`--record`), and stops once that record is removed or names another server.
struct Serve: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve", abstract: "Serve the sandbox until Ctrl-C, SIGTERM or the idle timeout.")

  @OptionGroup var options: ServeOptions

  @Option(help: .hidden)
  var record: String?

  @Option(help: .hidden)
  var build = ""

  /// Writes the served record in the runtime directory, where `deck env add NAME --sandbox URL`
  /// and the operator commands of an environment that points here find the admin token (what
  /// `deck sandbox serve` asks for). The server writes no file of deck's configuration.
  @Flag(help: .hidden)
  var saveAdminToken = false

  func run() async throws {
    // Limits a shell lowered for the command that started this server (`ulimit -S -n 48`) are
    // not the server's: the soft limits go back up to the hard ones.
    for warning in ProcessLimits.raiseSoftLimits() { Self.info("warning: \(warning)") }
    if !IPAddress.isLoopback(options.host), !options.allowRemote {
      Self.info(
        "Refusing to serve the sandbox on \(options.host), which is not a loopback address: anyone who can reach it could use its APIs and demo account.\nhint: Serve on loopback (--host 127.0.0.1), or add --allow-remote if that is what you want."
      )
      throw ExitCode.validationFailure
    }
    if !IPAddress.isLoopback(options.host) {
      Self.info(
        "warning: listening on \(options.host), not loopback: anyone who can reach this machine can use the sandbox's APIs and its demo account; the operator endpoints need the admin token."
      )
    }
    let environment = ProcessEnvironment.current()
    let database = options.database(
      environment: environment, fallback: DeckPaths(environment: environment).sandboxDatabase)
    // What messages and records show of it: never a password.
    let shown: String
    do {
      shown = try DatabaseLocation.parse(database, environment: environment).description
    } catch {
      Self.info("\(error)")
      throw ExitCode.validationFailure
    }
    var sandbox = SandboxOptions(
      databasePath: database, host: options.host, port: options.port, accessTokenTTL: options.accessTokenTTL,
      publicURL: options.publicURL, features: SandboxRegistry.features,
      signInLimits: .init(perEmail: options.rateLimit.perEmail, perAddress: options.rateLimit.perAddress))
    sandbox.corsOrigins = CORSOrigins(options.corsOrigins)
    let pid = getpid()
    let record = record
    let idle = IdleExit(timeout: options.idleTimeout > 0 ? .seconds(options.idleTimeout) : nil) {
      // Removed (`deck sandbox stop`, a removed runtime directory) or replaced: stop.
      guard let record else { return true }
      return LocalSandboxRecord.read(record)?.pid == pid
    }
    let (idleTimeout, build, saveAdminToken) = (options.idleTimeout, build, saveAdminToken)
    let served = ServedRecordPath()
    do {
      try await SandboxServer.serve(sandbox, idle: idle) { url, token, anonKey, bound in
        Self.line(url.absoluteString)
        Self.line("sandbox-admin-token=\(token)")
        // The auth service's apikey, for the Supabase clients (public by design, as a project's anon key).
        Self.line("sandbox-anon-key=\(anonKey)")
        Self.info("deck sandbox listening on \(url.absoluteString) (database \(shown)); Ctrl-C stops it.")
        // The record names the address the server is bound to (an IP literal, as deck requires).
        let address = bound.flatMap { LoopbackAddress(host: $0, port: url.port ?? 0) }
        let facts = LocalSandboxRecord(
          pid: pid, processStart: ProcessStart.current, url: address?.url ?? url.absoluteString, adminToken: token,
          database: shown, startedAt: Date().timeIntervalSince1970, idleTimeout: idleTimeout, build: build)
        if let record {
          do {
            try facts.write(to: record)
          } catch {
            Self.info("Cannot write \(record): \(error); stopping.")
            kill(pid, SIGTERM)
          }
        }
        if saveAdminToken {
          served.path.withLock {
            $0 = address.flatMap { Self.writeServedRecord(facts, at: $0, environment: environment) }
          }
          Self.info(
            "Point an environment at it (every service, and this admin token) in one step: deck env add NAME --sandbox \(url.absoluteString)"
          )
        }
      }
    } catch {
      Self.info("deck sandbox could not serve \(shown) on \(options.host):\(options.port): \(error)")
      Self.removeRecord(record, pid: pid)
      Self.removeRecord(served.path.withLock { $0 }, pid: pid)
      throw ExitCode.failure
    }
    Self.removeRecord(record, pid: pid)
    Self.removeRecord(served.path.withLock { $0 }, pid: pid)
  }

  /// Writes the record of a served sandbox (`deck sandbox serve`) in the runtime directory, by
  /// address and port, so that `deck env add NAME --sandbox URL` of this user finds its admin
  /// token (after the server proves it holds it). Returns its path.
  static func writeServedRecord(
    _ record: LocalSandboxRecord, at address: LoopbackAddress, environment: [String: String]
  ) -> String? {
    var path = "the runtime directory"
    do {
      let directory = try SandboxRuntime.directory(environment: environment) { info($0) }
      path = SandboxRuntime.servedRecordPath(directory: directory, host: address.host, port: address.port)
      SandboxRuntime.removeStaleServedRecords(directory: directory)
      try record.write(to: path)
      return path
    } catch {
      info("Could not write \(path) (deck env add --sandbox reads the admin token there): \(error)")
      return nil
    }
  }

  /// Removes the runtime record if it is still this server's.
  static func removeRecord(_ path: String?, pid: Int32) {
    guard let path, LocalSandboxRecord.read(path)?.pid == pid else { return }
    unlink(path)
  }

  /// A line on stdout, flushed at once (a script reads the URL while the server runs).
  static func line(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }

  static func info(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }
}

/// Where the served record was written, once the server listens (removed when it stops).
final class ServedRecordPath: Sendable {
  let path = Mutex<String?>(nil)
}
