#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The server outlives the command that started it, so the limits a shell set for that command
/// (`ulimit -S -n 48; ulimit -S -t 30`) are not its own: at start it raises each soft limit to
/// its hard limit. A hard limit cannot be raised without privileges; where one is too low for
/// a server, it says so.
enum ProcessLimits {
  /// The limits raised: open files, CPU time, address space, data and file size.
  #if canImport(Glibc)
    typealias Resource = __rlimit_resource_t
    static let resources: [(Resource, String)] = [
      (RLIMIT_NOFILE, "open files"), (RLIMIT_CPU, "CPU time"), (RLIMIT_AS, "address space"),
      (RLIMIT_DATA, "data size"), (RLIMIT_FSIZE, "file size"),
    ].map { (Resource($0.0.rawValue), $0.1) }
  #else
    typealias Resource = Int32
    static let resources: [(Resource, String)] = [
      (RLIMIT_NOFILE, "open files"), (RLIMIT_CPU, "CPU time"), (RLIMIT_AS, "address space"),
      (RLIMIT_DATA, "data size"), (RLIMIT_FSIZE, "file size"),
    ]
  #endif

  /// The fewest open files a server is fine with (connections, the database, its log).
  static let minimumOpenFiles: rlim_t = 1024

  /// Raises every soft limit to its hard limit; returns what is still too low to serve well.
  static func raiseSoftLimits() -> [String] {
    var warnings: [String] = []
    for (resource, name) in resources {
      var limit = rlimit()
      guard getrlimit(resource, &limit) == 0 else { continue }
      if limit.rlim_cur != limit.rlim_max {
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(resource, &limit)
      }
      if name == "open files", limit.rlim_max < minimumOpenFiles {
        warnings.append(
          "the hard limit of open files is \(limit.rlim_max) (ulimit -Hn), so the server can hold few connections.")
      } else if name == "CPU time", limit.rlim_max != rlim_t.max {
        warnings.append(
          "the hard limit of CPU time is \(limit.rlim_max) s (ulimit -Ht): the server ends when it has used it.")
      }
    }
    return warnings
  }
}
