#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's environment variables.
public enum ProcessEnvironment {
  /// Every variable, read from `environ`: the dictionary `ProcessInfo.processInfo.environment`
  /// gives, built at a fraction of its cost, since it is read at every start (bench/README.md,
  /// "Figures behind the code").
  /// A name that appears twice keeps its first value, as `getenv` reads it; a byte that is not
  /// UTF-8 becomes U+FFFD.
  public static func current() -> [String: String] {
    var variables: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
      let bytes = UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))
      if let equals = bytes.firstIndex(of: UInt8(ascii: "=")), equals > 0 {
        let name = String(decoding: bytes[..<equals], as: UTF8.self)
        if variables[name] == nil {
          variables[name] = String(decoding: bytes[(equals + 1)...], as: UTF8.self)
        }
      }
      entry += 1
    }
    return variables
  }
}
