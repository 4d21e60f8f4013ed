import DeckValues
import PrefsRules
import Testing

@Suite("Notification settings")
struct NotificationTests {
  @Test("the spec's defaults")
  func defaults() throws {
    let defaults = NotificationSettings.defaults
    #expect(defaults.followUpReminderDays == 7)
    #expect(defaults.enableFollowUpReminders)
    #expect(defaults.enableDeadlineAlerts)
    #expect(defaults.enableDailyDigest)
    #expect(defaults.enableInboundInteractionAlerts)
    #expect(defaults.enableEmailNotifications)
    #expect(!defaults.emailOnlyHighPriority)
    #expect(defaults.quietHoursStart == nil)
    #expect(defaults.quietHoursEnd == nil)
    #expect(
      try encodedJSON(defaults)
        == .object([
          "followUpReminderDays": .int(7), "enableFollowUpReminders": .bool(true), "enableDeadlineAlerts": .bool(true),
          "enableDailyDigest": .bool(true), "enableInboundInteractionAlerts": .bool(true),
          "enableEmailNotifications": .bool(true), "emailOnlyHighPriority": .bool(false),
        ]))
  }

  @Test("followUpReminderDays is 1–90", arguments: [(1, true), (90, true), (0, false), (91, false), (500, false)])
  func reminderDays(days: Int, valid: Bool) {
    let expected = valid ? [] : ["followUpReminderDays: \(days) is out of range; allowed 1–90"]
    #expect(refusal(NotificationSettings(), ["followUpReminderDays=\(days)"]) == expected)
  }

  @Test("quiet hours are HH:MM from 00:00 to 23:59", arguments: ["00:00", "23:59", "12:30"])
  func quietHours(time: String) throws {
    let settings = try NotificationSettings().applying(["quietHoursStart=\(time)", "quietHoursEnd=\(time)"]).value
    #expect(settings.quietHoursStart == time)
    #expect(settings.quietHoursEnd == time)
  }

  @Test("other times are refused", arguments: ["24:00", "12:60", "7:5", "noon", "1230", "12:30:00"])
  func badQuietHours(time: String) {
    #expect(
      refusal(NotificationSettings(), ["quietHoursStart=\(time)"]) == [
        "quietHoursStart: \"\(time)\" is not a time of day; use HH:MM from 00:00 to 23:59"
      ])
  }

  @Test("a one-digit hour is padded")
  func paddedHour() throws {
    #expect(try NotificationSettings().applying(["quietHoursEnd=7:30"]).value.quietHoursEnd == "07:30")
  }

  @Test(
    "toggles take true/false/yes/no/on/off/1/0 in any case",
    arguments: [
      ("yes", true), ("NO", false), ("on", true), ("Off", false), ("1", true), ("0", false), ("TRUE", true),
      ("false", false),
    ])
  func toggles(text: String, value: Bool) throws {
    let start = NotificationSettings(enableDailyDigest: !value)
    #expect(try start.applying(["enableDailyDigest=\(text)"]).value.enableDailyDigest == value)
  }

  @Test("a toggle refuses other words and cannot be cleared")
  func badToggle() {
    #expect(
      refusal(NotificationSettings(), ["enableDailyDigest=maybe"]) == [
        "enableDailyDigest: \"maybe\" is not true or false"
      ])
    #expect(
      refusal(NotificationSettings(), ["followUpReminderDays="]) == [
        "followUpReminderDays: cannot be cleared; it always has a value (1–90)"
      ])
    #expect(
      refusal(NotificationSettings(), ["enableDailyDigest="]) == [
        "enableDailyDigest: cannot be cleared; it always has a value (true or false)"
      ])
  }

  @Test("setting a nested field while its parent is off is refused, naming the parent")
  func nestingRefused() {
    let emailOff = NotificationSettings(enableEmailNotifications: false)
    let message =
      "emailOnlyHighPriority: has no effect while enableEmailNotifications is off; set enableEmailNotifications=true in the same command"
    #expect(refusal(emailOff, ["emailOnlyHighPriority=true"]) == [message])
    #expect(refusal(emailOff, ["emailOnlyHighPriority=false"]) == [message], "any set, not only true")
    #expect(refusal(NotificationSettings(), ["enableEmailNotifications=off", "emailOnlyHighPriority=on"]) == [message])
    #expect(
      refusal(NotificationSettings(enableFollowUpReminders: false), ["followUpReminderDays=14"]) == [
        "followUpReminderDays: has no effect while enableFollowUpReminders is off; set enableFollowUpReminders=true in the same command"
      ])
  }

  @Test("a nested field can be set with its parent, or while the parent is on")
  func nestingAllowed() throws {
    let emailOff = NotificationSettings(enableEmailNotifications: false)
    let both = try emailOff.applying(["enableEmailNotifications=true", "emailOnlyHighPriority=true"]).value
    #expect(both.enableEmailNotifications && both.emailOnlyHighPriority)
    #expect(try NotificationSettings().applying(["followUpReminderDays=14"]).value.followUpReminderDays == 14)
  }

  @Test("turning a parent off keeps the nested value, which is then listed as inactive")
  func inactive() throws {
    let start = NotificationSettings(followUpReminderDays: 21, emailOnlyHighPriority: true)
    #expect(start.inactiveFields.isEmpty)
    let (off, changes) = try start.applying(["enableEmailNotifications=false", "enableFollowUpReminders=no"])
    #expect(off.emailOnlyHighPriority)
    #expect(off.followUpReminderDays == 21)
    #expect(off.inactiveFields == ["emailOnlyHighPriority", "followUpReminderDays"])
    #expect(changes.map(\.field) == ["enableFollowUpReminders", "enableEmailNotifications"])
  }

  @Test("the catalog nests the two fields under their toggles")
  func nestingCatalog() {
    let parents = Dictionary(uniqueKeysWithValues: NotificationSettings.specs.map { ($0.key, $0.parent) })
    #expect(parents["followUpReminderDays"] == "enableFollowUpReminders")
    #expect(parents["emailOnlyHighPriority"] == "enableEmailNotifications")
    #expect(parents.values.compactMap { $0 }.count == 2)
  }
}
