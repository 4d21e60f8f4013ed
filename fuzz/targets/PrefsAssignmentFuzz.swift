import Foundation

// libFuzzer target: `deck prefs set CATEGORY key=value …` (FieldRecord.applying), one assignment
// per input line, on the category the first byte picks; and the merge patch of the result.
// Invariants: nothing traps; an accepted change validates as a whole and is idempotent (applying
// it again changes nothing); the merge patch from the old value to the new one, applied to the
// old one, gives the new one; the edit of a school list by name never traps either.

func check<Record: FieldRecord>(_ record: Record, _ assignments: [String]) {
  guard let (updated, changes) = try? record.applying(assignments) else { return }
  precondition(updated.validate().isValid, "accepted an invalid value")
  precondition(changes == record.changes(to: updated))
  if let (again, more) = try? updated.applying(assignments) {
    precondition(again == updated && more.isEmpty, "applying the same change twice changed more")
  }
  let patch = record.mergePatch(to: updated)
  if let patched = try? record.patched(with: patch) {
    precondition(patched == updated, "the merge patch did not reproduce the change")
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  guard size > 0 else { return 0 }
  // The first byte picks what the rest is fed to; the rest is one assignment per line.
  let text = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
  let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  switch data[0] % 6 {
  case 0: check(PlayerDetails(), lines)
  case 1: check(NotificationSettings(), lines)
  case 2: check(NotificationSettings(enableFollowUpReminders: false, enableEmailNotifications: false), lines)
  case 3: check(DashboardWidgetVisibility(), lines)
  case 4: check(HomeLocation(), lines)
  default:
    for line in lines {
      _ = try? DashboardWidgetVisibility().hiding([line])
      _ = try? SchoolTemplate.named(line)
      if let space = line.firstIndex(of: " ") {
        _ = try? SchoolCriterion.parse(type: String(line[..<space]), value: String(line[line.index(after: space)...]))
      }
      _ = Height.parseInches(line)
    }
  }
  return 0
}
