import DeckSupport
import FoundationEssentials

/// How `deck doctor` words sizes, modes and days (spans of time: `DurationText`).
enum DoctorFormat {
  /// "512 bytes", "4.0 KiB", "2.3 MiB", "1.1 GiB".
  static func size(_ bytes: Int64) -> String {
    if bytes < 1024 { return "\(bytes) bytes" }
    let units = ["KiB", "MiB", "GiB", "TiB"]
    var value = Double(bytes) / 1024
    var unit = 0
    while value >= 1024 && unit < units.count - 1 {
      value /= 1024
      unit += 1
    }
    return NumberText.fixed(value, digits: 1) + " " + units[unit]
  }

  /// A file mode as ls shows it in octal: "600", "755".
  static func mode(_ mode: UInt32) -> String { String(mode & 0o777, radix: 8) }

  /// Whole days from `now` to `date` (negative when past), rounded towards zero.
  static func days(from now: Date, to date: Date) -> Int {
    let days = date.timeIntervalSince(now) / 86_400
    guard days.isFinite else { return 0 }
    return Int(max(min(days, 1e9), -1e9))
  }
}
