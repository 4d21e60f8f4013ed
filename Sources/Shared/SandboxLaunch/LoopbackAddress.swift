import DeckSupport
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A loopback address and port: where a sandbox record says its server listens, and where deck
/// sends a probe. Only the two loopback literals: a record naming anything else is refused.
public struct LoopbackAddress: Sendable, Equatable, Hashable, CustomStringConvertible {
  /// `127.0.0.1` or `::1`.
  public var host: String
  public var port: Int

  public static let hosts = ["127.0.0.1", "::1"]

  public init?(host: String, port: Int) {
    guard Self.hosts.contains(host), (1...65535).contains(port) else { return nil }
    self.host = host
    self.port = port
  }

  /// From exactly `http://127.0.0.1:PORT` or `http://[::1]:PORT` (no path, no name, no other scheme).
  public init?(url: String) {
    let prefixes = ["http://127.0.0.1:": "127.0.0.1", "http://[::1]:": "::1"]
    guard let (prefix, host) = prefixes.first(where: { url.hasPrefix($0.key) }) else { return nil }
    let digits = url.dropFirst(prefix.count)
    guard (1...5).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(digits)
    else { return nil }
    self.init(host: host, port: port)
  }

  /// `http://127.0.0.1:PORT` or `http://[::1]:PORT`.
  public var url: String { "http://\(host.contains(":") ? "[\(host)]" : host):\(port)" }

  /// `127.0.0.1:PORT` or `[::1]:PORT`.
  public var description: String { String(url.dropFirst("http://".count)) }
}

/// When a process started: `/proc/PID/stat`'s 22nd field (clock ticks since boot). A record
/// keeps its server's, so that deck never signals another process that took the pid after the
/// server ended (pids are reused: pid_max is often 32768).
public enum ProcessStart {
  /// nil when no process has the pid, it has exited (a zombie), or the system does not tell
  /// (only Linux has /proc/PID/stat).
  public static func of(_ pid: Int32) -> UInt64? {
    #if os(Linux)
      guard pid > 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return nil }
      // After "PID (name)": field 3 (the state) is the first; field 22 (the start) the 20th.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      guard fields.count >= 20, fields[0] != "Z" else { return nil }
      return UInt64(fields[19])
    #else
      return nil
    #endif
  }

  /// This process's.
  public static var current: UInt64? { of(getpid()) }
}
