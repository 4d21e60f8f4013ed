import Foundation

// libFuzzer target: `deck prefs set CATEGORY key=value …` (FieldRecord.applying), one assignment
// per input line, on every category that takes assignments; and the merge patch of the result.
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
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let assignments = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  check(PlayerDetails(), assignments)
  check(NotificationSettings(), assignments)
  check(NotificationSettings(enableFollowUpReminders: false, enableEmailNotifications: false), assignments)
  check(DashboardWidgetVisibility(), assignments)
  check(HomeLocation(), assignments)
  for line in assignments {
    _ = try? DashboardWidgetVisibility().hiding([line])
    _ = try? SchoolTemplate.named(line)
    if let space = line.firstIndex(of: " ") {
      _ = try? SchoolCriterion.parse(type: String(line[..<space]), value: String(line[line.index(after: space)...]))
    }
    _ = Height.parseInches(line)
  }
  return 0
}
