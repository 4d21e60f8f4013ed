import FoundationEssentials

/// IP address literals, parsed strictly (no octal, hex or short forms such as `127.1`).
public enum IPAddress {
  /// True for `localhost` and for IP literals in 127.0.0.0/8 or `::1` (also IPv4-mapped).
  /// The host is parsed as an address, so `127.attacker.example` is not loopback.
  public static func isLoopback(_ host: String) -> Bool {
    var host = host.lowercased()
    if host.hasSuffix(".") { host.removeLast() }
    if host == "localhost" { return true }
    if let address = IPAddress.v4(host) { return address[0] == 127 }
    if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    guard let address = IPAddress.v6(host) else { return false }
    if address == [UInt8](repeating: 0, count: 15) + [1] { return true }
    // ::ffff:127.x.y.z
    return address.prefix(10).allSatisfy { $0 == 0 } && address[10] == 0xFF && address[11] == 0xFF
      && address[12] == 127
  }

  /// Four bytes from dotted decimal, e.g. `127.0.0.1`.
  public static func v4(_ text: String) -> [UInt8]? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4 else { return nil }
    var bytes: [UInt8] = []
    for part in parts {
      guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }),
        part == "0" || !part.hasPrefix("0"), let value = UInt8(part)
      else { return nil }
      bytes.append(value)
    }
    return bytes
  }

  /// Sixteen bytes from an IPv6 literal (RFC 4291 text forms, with `::` and a trailing IPv4 part).
  public static func v6(_ text: String) -> [UInt8]? {
    guard !text.isEmpty, text.count <= 45 else { return nil }
    let halves = text.pieces(separatedBy: "::")
    guard halves.count <= 2 else { return nil }
    func groups(_ part: String, allowIPv4: Bool) -> [UInt8]? {
      if part.isEmpty { return [] }
      var bytes: [UInt8] = []
      let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
      for (index, piece) in pieces.enumerated() {
        if allowIPv4 && index == pieces.count - 1 && piece.contains(".") {
          guard let v4 = v4(String(piece)) else { return nil }
          bytes += v4
          continue
        }
        guard (1...4).contains(piece.count), piece.allSatisfy(\.isHexDigit), piece.allSatisfy(\.isASCII),
          let value = UInt16(piece, radix: 16)
        else { return nil }
        bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
      }
      return bytes
    }
    if halves.count == 1 {
      guard let bytes = groups(halves[0], allowIPv4: true), bytes.count == 16 else { return nil }
      return bytes
    }
    guard let head = groups(halves[0], allowIPv4: false), let tail = groups(halves[1], allowIPv4: true),
      head.count + tail.count <= 14
    else { return nil }
    return head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
  }
}

/// The parts of a base URL deck needs. deck checks every character itself, so a URL it
/// accepts is one Foundation's `URL(string:)` accepts too: nothing built from it can fail later.
public struct ParsedURL: Sendable, Equatable {
  public var scheme: String
  public var host: String
  public var port: Int?

  /// Why a string is not a usable base URL.
  public struct Problem: Error, Sendable, Equatable {
    public var reason: String
  }

  public init?(_ string: String) {
    guard case .success(let parsed) = Self.parse(string) else { return nil }
    self = parsed
  }

  /// `scheme://host:port`, the scheme's default port written out: two URLs reach the same
  /// server exactly when their origins are equal.
  public var origin: String { "\(scheme)://\(host):\(port ?? (scheme == "https" ? 443 : 80))" }

  public init(scheme: String, host: String, port: Int?) {
    self.scheme = scheme
    self.host = host
    self.port = port
  }

  public static func parse(_ string: String) -> Result<ParsedURL, Problem> {
    func fail(_ reason: String) -> Result<ParsedURL, Problem> { .failure(Problem(reason: reason)) }
    guard string.utf8.count <= 2048 else { return fail("it is longer than 2048 bytes") }
    if let bad = firstInvalidCharacter(string) { return fail(bad) }
    guard let schemeEnd = string.firstRange(of: "://") else { return fail("it is not an absolute http(s) URL") }
    let scheme = string[..<schemeEnd.lowerBound].lowercased()
    guard scheme == "http" || scheme == "https" else { return fail("the scheme must be http or https") }
    let rest = string[schemeEnd.upperBound...]
    let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    guard !authority.isEmpty else { return fail("it has no host") }
    guard !authority.contains("@") else { return fail("user names and passwords in URLs are not supported") }
    var host = Substring(authority)
    var portText: Substring?
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { return fail("the IPv6 address has no closing ]") }
      host = authority[...close]
      guard IPAddress.v6(String(host.dropFirst().dropLast())) != nil else {
        return fail("\(host) is not an IPv6 address")
      }
      let after = authority[authority.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":") else { return fail("unexpected text after the IPv6 address") }
        portText = after.dropFirst()
      }
    } else {
      if let colon = authority.lastIndex(of: ":") {
        host = authority[..<colon]
        portText = authority[authority.index(after: colon)...]
      }
      guard !host.contains("[") && !host.contains("]") && !host.contains(":") else {
        return fail("the host \(host) is not valid")
      }
    }
    guard !host.isEmpty else { return fail("it has no host") }
    var port: Int?
    if let portText {
      guard (1...5).contains(portText.count), portText.allSatisfy({ $0.isASCII && $0.isNumber }),
        let value = Int(portText), (1...65535).contains(value)
      else { return fail("the port must be a number from 1 to 65535") }
      port = value
    }
    // The last word: whatever deck accepts, Foundation must accept too.
    guard let url = URL(string: string), url.host != nil else { return fail("it is not a valid URL") }
    return .success(ParsedURL(scheme: scheme, host: host.lowercased(), port: port))
  }

  /// RFC 3986 allows only these characters (and `%` followed by two hex digits).
  static let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%".utf8)

  static func firstInvalidCharacter(_ string: String) -> String? {
    let bytes = Array(string.utf8)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      guard allowed.contains(byte) else {
        if byte >= 0x80 { return "it contains a non-ASCII character (use the punycode or percent-encoded form)" }
        if byte < 0x20 || byte == 0x7F { return "it contains a control character" }
        if byte == 0x20 { return "it contains a space" }
        return "the character '\(Character(Unicode.Scalar(byte)))' is not allowed in a URL"
      }
      if byte == UInt8(ascii: "%") {
        guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2])
        else { return "'%' must be followed by two hex digits" }
        index += 3
        continue
      }
      index += 1
    }
    return nil
  }

  private static func isHex(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
  }
}
