#if canImport(Glibc)
  import Glibc
#endif

/// A command line handed to the start-up helper by the launcher (docs/HELPER.md, "Protocol"):
/// everything a new process would have inherited, except the file descriptors, which come
/// with the request's first message.
public struct HelperRequest: Equatable, Sendable {
  public var workingDirectory: [UInt8]
  public var umask: UInt32
  /// Bit s-1 set: signal s is ignored (SIG_IGN) in the client.
  public var ignoredSignals: UInt64
  /// Bit s-1 set: signal s is blocked in the client.
  public var blockedSignals: UInt64
  /// argv, argv[0] included.
  public var arguments: [String]
  /// The environment, `NAME=value` entries as bytes (not necessarily UTF-8).
  public var environment: [[UInt8]]

  /// The first message's bytes; it carries the client's fds 0, 1 and 2.
  public static let magic: [UInt8] = Array("DK01".utf8)
  /// The largest payload accepted (the launcher never sends more).
  public static let maximumSize = 16 << 20

  public init(
    workingDirectory: [UInt8], umask: UInt32, ignoredSignals: UInt64, blockedSignals: UInt64,
    arguments: [String], environment: [[UInt8]]
  ) {
    self.workingDirectory = workingDirectory
    self.umask = umask
    self.ignoredSignals = ignoredSignals
    self.blockedSignals = blockedSignals
    self.arguments = arguments
    self.environment = environment
  }

  /// Decodes a payload: NUL-terminated strings (working directory, umask, the two signal
  /// masks, argc, argv, then the environment to the end).
  public init(payload: [UInt8]) throws(HelperProtocolError) {
    guard payload.last == 0 else { throw .malformed("the request does not end with a NUL") }
    let fields = payload.dropLast().split(separator: 0, omittingEmptySubsequences: false).map(Array.init)
    guard fields.count >= 5 else { throw .malformed("the request has \(fields.count) fields, fewer than 5") }
    func number<N: FixedWidthInteger>(_ index: Int, _ name: String, as _: N.Type) throws(HelperProtocolError) -> N {
      guard let value = N(String(decoding: fields[index], as: UTF8.self)) else {
        throw .malformed("the \(name) is not a decimal number")
      }
      return value
    }
    let argc = try number(4, "argument count", as: Int.self)
    guard argc >= 1, argc <= fields.count - 5 else {
      throw .malformed("the argument count \(argc) does not match the \(fields.count - 5) strings after it")
    }
    self.init(
      workingDirectory: fields[0], umask: try number(1, "umask", as: UInt32.self),
      ignoredSignals: try number(2, "ignored-signal mask", as: UInt64.self),
      blockedSignals: try number(3, "blocked-signal mask", as: UInt64.self),
      arguments: fields[5..<(5 + argc)].map { String(decoding: $0, as: UTF8.self) },
      environment: Array(fields[(5 + argc)...]))
  }

  /// The payload the launcher sends for this request (the inverse of `init(payload:)`).
  public var payload: [UInt8] {
    var fields: [[UInt8]] = [
      workingDirectory, Array(String(umask).utf8), Array(String(ignoredSignals).utf8),
      Array(String(blockedSignals).utf8), Array(String(arguments.count).utf8),
    ]
    fields += arguments.map { Array($0.utf8) }
    fields += environment
    return fields.flatMap { $0 + [0] }
  }
}

/// A request the helper cannot use; the child says so on the client's stderr and exits 70.
public enum HelperProtocolError: Error, Equatable, CustomStringConvertible {
  case malformed(String)
  case io(String)

  public var description: String {
    switch self {
    case .malformed(let detail): "deck: the launcher's request is malformed (\(detail))"
    case .io(let detail): "deck: cannot read the launcher's request (\(detail))"
    }
  }
}
