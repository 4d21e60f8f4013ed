/// The string formats the check knows: date-time (RFC 3339), date, time, uuid, email, uri and
/// uri-reference. Any other format is an annotation only (`check` answers nil).
enum Formats {
  /// Whether `text` is a valid `format`, or nil when the format is not checked.
  static func check(_ format: String, _ text: String) -> Bool? {
    switch format {
    case "date-time": isDateTime(text)
    case "date": isDate(Array(text.utf8))
    case "time": isTime(Array(text.utf8))
    case "uuid": isUUID(text)
    case "email": isEmail(text)
    case "uri": isURI(text, requireScheme: true)
    case "uri-reference": isURI(text, requireScheme: false)
    default: nil
    }
  }

  // MARK: RFC 3339

  static func isDateTime(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard let separator = bytes.firstIndex(where: { $0 == UInt8(ascii: "T") || $0 == UInt8(ascii: "t") }) else {
      return false
    }
    return isDate(Array(bytes[..<separator])) && isTime(Array(bytes[(separator + 1)...]))
  }

  /// full-date: YYYY-MM-DD with a day that exists in that month.
  static func isDate(_ bytes: [UInt8]) -> Bool {
    guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      let year = number(bytes[0..<4]), let month = number(bytes[5..<7]), let day = number(bytes[8..<10])
    else { return false }
    guard (1...12).contains(month), day >= 1 else { return false }
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return day <= days[month - 1]
  }

  /// full-time: HH:MM:SS[.frac](Z|±HH:MM).
  static func isTime(_ bytes: [UInt8]) -> Bool {
    guard bytes.count >= 9, bytes[2] == UInt8(ascii: ":"), bytes[5] == UInt8(ascii: ":"),
      let hour = number(bytes[0..<2]), let minute = number(bytes[3..<5]), let second = number(bytes[6..<8]),
      hour <= 23, minute <= 59, second <= 60
    else { return false }
    var index = 8
    if bytes[index] == UInt8(ascii: ".") {
      index += 1
      let start = index
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
      guard index > start else { return false }
    }
    let offset = bytes[index...]
    if offset.count == 1, offset.first == UInt8(ascii: "Z") || offset.first == UInt8(ascii: "z") { return true }
    let zone = Array(offset)
    guard zone.count == 6, zone[0] == UInt8(ascii: "+") || zone[0] == UInt8(ascii: "-"),
      zone[3] == UInt8(ascii: ":"), let hours = number(zone[1..<3]), let minutes = number(zone[4..<6])
    else { return false }
    return hours <= 23 && minutes <= 59
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
    guard !digits.isEmpty, digits.allSatisfy(isDigit) else { return nil }
    return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
  }

  // MARK: uuid

  static func isUUID(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard bytes.count == 36 else { return false }
    for (index, byte) in bytes.enumerated() {
      if [8, 13, 18, 23].contains(index) {
        guard byte == UInt8(ascii: "-") else { return false }
      } else if !(isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
        || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte))
      {
        return false
      }
    }
    return true
  }

  // MARK: email (RFC 5321 Mailbox, unquoted local parts)

  static func isEmail(_ text: String) -> Bool {
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, let local = parts.first, let domain = parts.last, !local.isEmpty, local.utf8.count <= 64,
      !domain.isEmpty
    else { return false }
    let atext = Set("!#$%&'*+-/=?^_`{|}~".unicodeScalars)
    let localAtoms = local.split(separator: ".", omittingEmptySubsequences: false)
    guard
      localAtoms.allSatisfy({ atom in
        !atom.isEmpty
          && atom.unicodeScalars.allSatisfy { isAlphanumeric($0) || atext.contains($0) || $0.value > 0x7F }
      })
    else { return false }
    if domain.hasPrefix("[") { return domain.hasSuffix("]") && domain.count > 2 }
    let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
    return labels.allSatisfy { label in
      !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
        && label.unicodeScalars.allSatisfy { isAlphanumeric($0) || $0 == "-" || $0.value > 0x7F }
    }
  }

  private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
    (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9")
  }

  // MARK: uri (RFC 3986)

  static func isURI(_ text: String, requireScheme: Bool) -> Bool {
    let scalars = Array(text.unicodeScalars)
    let allowed = Set("-._~:/?#[]@!$&'()*+,;=%".unicodeScalars)
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      guard isAlphanumeric(scalar) || allowed.contains(scalar) else { return false }
      if scalar == "%" {
        guard index + 2 < scalars.count, isHex(scalars[index + 1]), isHex(scalars[index + 2]) else { return false }
        index += 2
      }
      index += 1
    }
    guard requireScheme else { return true }
    guard let colon = scalars.firstIndex(of: ":"), colon > 0, let first = scalars.first,
      (first >= "a" && first <= "z") || (first >= "A" && first <= "Z")
    else { return false }
    return scalars[..<colon].allSatisfy { isAlphanumeric($0) || $0 == "+" || $0 == "-" || $0 == "." }
  }

  private static func isHex(_ scalar: Unicode.Scalar) -> Bool {
    isAlphanumeric(scalar)
      && ((scalar >= "0" && scalar <= "9") || (scalar >= "a" && scalar <= "f")
        || (scalar >= "A" && scalar <= "F"))
  }
}
