/// The athlete's profile (spec 2A). Every field is optional; the JSON keys are the property names
/// except `throws_`, whose key is `throws`.
public struct PlayerDetails: FieldRecord {
  // Basic Info
  public var graduationYear: Int?
  public var highSchool: String?
  public var clubTeam: String?
  // Athletic Profile
  public var primarySport: String?
  public var primaryPosition: String?
  public var positions: [String]?
  // Physical Stats
  public var bats: String?
  public var throws_: String?
  public var heightInches: Int?
  public var weightLbs: Int?
  // Academics
  public var gpa: Double?
  public var satScore: Int?
  public var actScore: Int?
  // External IDs
  public var ncaaId: String?
  public var perfectGameId: String?
  public var prepBaseballId: String?
  // Social Media
  public var twitterHandle: String?
  public var instagramHandle: String?
  public var tiktokHandle: String?
  public var facebookUrl: String?
  // Contact
  public var phone: String?
  public var email: String?
  public var allowSharePhone: Bool?
  public var allowShareEmail: Bool?
  // School Info
  public var schoolName: String?
  public var schoolAddress: String?
  public var schoolCity: String?
  public var schoolState: String?
  // High School Teams (per grade)
  public var ninthGradeTeam: String?
  public var ninthGradeCoach: String?
  public var tenthGradeTeam: String?
  public var tenthGradeCoach: String?
  public var eleventhGradeTeam: String?
  public var eleventhGradeCoach: String?
  public var twelfthGradeTeam: String?
  public var twelfthGradeCoach: String?
  // Travel Team
  public var travelTeamYear: Int?
  public var travelTeamName: String?
  public var travelTeamCoach: String?

  /// Every field unset.
  public init() {}

  public static let category = PrefsCategory.player
  public static let defaults = PlayerDetails()
  public var tagged: PrefsValue { .player(self) }

  /// Years accepted for `graduationYear` and `travelTeamYear` (the app has no clock, so a fixed window).
  public static let years = 2000...2100
  /// Weight in pounds.
  public static let weights = 50...500

  /// Positions are the primary sport's (see `Sport`).
  public func normalizedAcrossFields() -> PlayerDetails { normalizedPositions() }
  public var crossFieldIssues: [ValidationIssue] { positionIssues }

  /// The catalog: the spec's form sections 2–11 (the photo has no field), in order.
  public static let fields: [Field<PlayerDetails>] =
    Field.section(
      "Basic Information",
      [
        Field("graduationYear", \.graduationYear, "Graduation year", .intRange(years)),
        Field("highSchool", \.highSchool, "High school", .text),
        Field("clubTeam", \.clubTeam, "Club team", .text),
      ])
    + Field.section(
      "Athletic Profile",
      [
        Field("primarySport", \.primarySport, "Sport", .oneOf(Sport.names), aliases: ["sport"]),
        Field("primaryPosition", \.primaryPosition, "Primary position", .position),
        Field("positions", \.positions, "All positions", .position),
      ])
    + Field.section(
      "Physical Profile",
      [
        Field("bats", \.bats, "Bats", .oneOf(["L", "R", "S"])),
        Field("throws", \.throws_, "Throws", .oneOf(["L", "R"])),
        Field("heightInches", \.heightInches, "Height", .height, aliases: ["height"]),
        Field("weightLbs", \.weightLbs, "Weight (lbs)", .intRange(weights), aliases: ["weight"]),
      ])
    + Field.section(
      "Academics",
      [
        Field("gpa", \.gpa, "GPA", .doubleRange(0.0...5.0)),
        Field("satScore", \.satScore, "SAT", .intRange(400...1600), aliases: ["sat"]),
        Field("actScore", \.actScore, "ACT", .intRange(1...36), aliases: ["act"]),
      ])
    + Field.section(
      "External Profiles",
      [
        Field("ncaaId", \.ncaaId, "NCAA ID", .text),
        Field("perfectGameId", \.perfectGameId, "Perfect Game ID", .text),
        Field("prepBaseballId", \.prepBaseballId, "Prep Baseball ID", .text),
      ])
    + Field.section(
      "Social Media",
      [
        Field("twitterHandle", \.twitterHandle, "Twitter", .handle, aliases: ["twitter"]),
        Field("instagramHandle", \.instagramHandle, "Instagram", .handle, aliases: ["instagram"]),
        Field("tiktokHandle", \.tiktokHandle, "TikTok", .handle, aliases: ["tiktok"]),
        Field("facebookUrl", \.facebookUrl, "Facebook", .webURL, aliases: ["facebook"]),
      ])
    + Field.section(
      "Contact Info",
      [
        Field("phone", \.phone, "Phone", .phone),
        Field("email", \.email, "Email", .email),
        Field("allowSharePhone", \.allowSharePhone, "Share phone", .any),
        Field("allowShareEmail", \.allowShareEmail, "Share email", .any),
      ])
    + Field.section(
      "Current High School",
      [
        Field("schoolName", \.schoolName, "School name", .text),
        Field("schoolAddress", \.schoolAddress, "Address", .text),
        Field("schoolCity", \.schoolCity, "City", .text),
        Field("schoolState", \.schoolState, "State", .usState),
      ])
    + Field.section(
      "High School Teams",
      [
        Field("ninthGradeTeam", \.ninthGradeTeam, "9th grade team", .text),
        Field("ninthGradeCoach", \.ninthGradeCoach, "9th grade coach", .text),
        Field("tenthGradeTeam", \.tenthGradeTeam, "10th grade team", .text),
        Field("tenthGradeCoach", \.tenthGradeCoach, "10th grade coach", .text),
        Field("eleventhGradeTeam", \.eleventhGradeTeam, "11th grade team", .text),
        Field("eleventhGradeCoach", \.eleventhGradeCoach, "11th grade coach", .text),
        Field("twelfthGradeTeam", \.twelfthGradeTeam, "12th grade team", .text),
        Field("twelfthGradeCoach", \.twelfthGradeCoach, "12th grade coach", .text),
      ])
    + Field.section(
      "Travel Team",
      [
        Field("travelTeamYear", \.travelTeamYear, "Travel team year", .intRange(years)),
        Field("travelTeamName", \.travelTeamName, "Travel team name", .text),
        Field("travelTeamCoach", \.travelTeamCoach, "Travel team coach", .text),
      ])
}
