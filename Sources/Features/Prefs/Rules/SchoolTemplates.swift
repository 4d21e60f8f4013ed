/// The quick-fill templates of the school preferences page, exactly as the spec's table gives them.
/// The raw value is the CLI slug.
public enum SchoolTemplate: String, Sendable, Codable, CaseIterable {
  case d1PowerConference = "d1-power-conference"
  case academicExcellence = "academic-excellence"
  case closeToHome = "close-to-home"
  case bestFit = "best-fit"

  public var slug: String { rawValue }

  /// The display name, stored as `templateUsed`.
  public var name: String {
    switch self {
    case .d1PowerConference: "D1 Power Conference"
    case .academicExcellence: "Academic Excellence"
    case .closeToHome: "Close to Home"
    case .bestFit: "Best Fit (Balanced)"
    }
  }

  /// The criteria in the table's order, which becomes their priority order.
  public var criteria: [SchoolCriterion] {
    switch self {
    case .d1PowerConference:
      [
        SchoolCriterion(.division, .strings(["D1"])), SchoolCriterion(.conferenceType, .strings(["Power 4"])),
        SchoolCriterion(.scholarshipRequired, .bool(true)),
      ]
    case .academicExcellence:
      [
        SchoolCriterion(.minAcademicRating, .int(4)), SchoolCriterion(.schoolSize, .string("medium")),
        SchoolCriterion(.division, .strings(["D1", "D3"])),
      ]
    case .closeToHome:
      [SchoolCriterion(.maxDistanceMiles, .int(300))]
    case .bestFit:
      [
        SchoolCriterion(.maxDistanceMiles, .int(500)), SchoolCriterion(.minAcademicRating, .int(3)),
        SchoolCriterion(.division, .strings(["D1", "D2", "D3"])),
      ]
    }
  }

  /// The template a user's name refers to: the slug or the display name, any case.
  public static func named(_ name: String) throws(Validation) -> SchoolTemplate {
    try NameMatching.resolve(name, in: allCases, what: "template") { [$0.slug, $0.name] }
  }
}

extension SchoolPreferences {
  /// All preferences replaced by the template's criteria, priorities 1…n in the table's order, none
  /// a dealbreaker, ids from `newID`; `templateUsed` set to its name. `lastUpdated` is left alone.
  public func applying(_ template: SchoolTemplate, newID: () -> String) -> SchoolPreferences {
    var copy = self
    copy.preferences = template.criteria.enumerated().map { offset, criterion in
      SchoolPreference(id: newID(), type: criterion.type, value: criterion.value, priority: offset + 1)
    }
    copy.templateUsed = template.name
    return copy
  }
}
