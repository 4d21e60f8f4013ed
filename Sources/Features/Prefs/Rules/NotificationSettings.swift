/// Notification preferences (spec 2C).
///
/// Nesting: `followUpReminderDays` has no effect while `enableFollowUpReminders` is off, nor
/// `emailOnlyHighPriority` while `enableEmailNotifications` is off. Like the iOS form, which
/// disables the nested control but keeps its value, stored values are preserved when the parent is
/// turned off; `inactiveFields` lists them for displays, and a `key=value` change that sets a
/// nested field while its parent is (after the change) off is refused, naming the parent.
public struct NotificationSettings: FieldRecord {
  public var followUpReminderDays: Int
  public var enableFollowUpReminders: Bool
  public var enableDeadlineAlerts: Bool
  public var enableDailyDigest: Bool
  public var enableInboundInteractionAlerts: Bool
  public var enableEmailNotifications: Bool
  public var emailOnlyHighPriority: Bool
  public var quietHoursStart: String?
  public var quietHoursEnd: String?

  /// The spec's defaults: reminders every 7 days, every toggle on except high-priority-only, no quiet hours.
  public init(
    followUpReminderDays: Int = 7, enableFollowUpReminders: Bool = true, enableDeadlineAlerts: Bool = true,
    enableDailyDigest: Bool = true, enableInboundInteractionAlerts: Bool = true,
    enableEmailNotifications: Bool = true, emailOnlyHighPriority: Bool = false, quietHoursStart: String? = nil,
    quietHoursEnd: String? = nil
  ) {
    self.followUpReminderDays = followUpReminderDays
    self.enableFollowUpReminders = enableFollowUpReminders
    self.enableDeadlineAlerts = enableDeadlineAlerts
    self.enableDailyDigest = enableDailyDigest
    self.enableInboundInteractionAlerts = enableInboundInteractionAlerts
    self.enableEmailNotifications = enableEmailNotifications
    self.emailOnlyHighPriority = emailOnlyHighPriority
    self.quietHoursStart = quietHoursStart
    self.quietHoursEnd = quietHoursEnd
  }

  public static let category = PrefsCategory.notifications
  public static let defaults = NotificationSettings()
  public var tagged: PrefsValue { .notifications(self) }

  /// The catalog: the form's In-App and Email sections (nested fields after their toggle), then the
  /// quiet hours, which the model has but the spec's form does not show.
  public static let fields: [Field<NotificationSettings>] =
    Field.section(
      "In-App Notifications",
      [
        Field("enableFollowUpReminders", \.enableFollowUpReminders, "Coach Follow-Up Reminders"),
        Field(
          "followUpReminderDays", \.followUpReminderDays, "Days between follow-ups", .intRange(1...90),
          parent: "enableFollowUpReminders"),
        Field("enableDeadlineAlerts", \.enableDeadlineAlerts, "Deadline Alerts"),
        Field("enableDailyDigest", \.enableDailyDigest, "Daily Digest"),
        Field("enableInboundInteractionAlerts", \.enableInboundInteractionAlerts, "Inbound Contact Alerts"),
      ])
    + Field.section(
      "Email Notifications",
      [
        Field("enableEmailNotifications", \.enableEmailNotifications, "Enable Email Notifications"),
        Field(
          "emailOnlyHighPriority", \.emailOnlyHighPriority, "High-Priority Only", parent: "enableEmailNotifications"),
      ])
    + Field.section(
      "Quiet Hours",
      [
        Field("quietHoursStart", \.quietHoursStart, "Quiet hours start", .time),
        Field("quietHoursEnd", \.quietHoursEnd, "Quiet hours end", .time),
      ])
}
