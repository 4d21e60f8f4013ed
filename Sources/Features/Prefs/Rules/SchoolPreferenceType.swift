/// The category of a school preference; the raw value is the JSON value.
public enum PreferenceCategory: String, Sendable, Codable, CaseIterable {
  case location, academic, program, custom

  public var title: String {
    switch self {
    case .location: "Location"
    case .academic: "Academic"
    case .program: "Program"
    case .custom: "Custom"
    }
  }
}

/// A kind of school preference (the spec's Preference Types table); the raw value is the JSON `type`.
public enum SchoolPreferenceType: String, Sendable, Codable, CaseIterable {
  case maxDistanceMiles = "max_distance_miles"
  case preferredRegions = "preferred_regions"
  case preferredStates = "preferred_states"
  case minAcademicRating = "min_academic_rating"
  case schoolSize = "school_size"
  case division
  case conferenceType = "conference_type"
  case scholarshipRequired = "scholarship_required"
  case mustHave = "must_have"
  case niceToHave = "nice_to_have"

  public static let regions = ["Northeast", "Southeast", "Midwest", "Southwest", "West Coast", "Pacific NW"]
  public static let schoolSizes = ["small", "medium", "large", "very_large"]
  public static let divisions = ["D1", "D2", "D3", "NAIA", "JUCO"]
  public static let conferenceTypes = ["Power 4", "Group of 5", "Mid-Major", "Small Conference"]

  /// The preference category the type belongs to; a preference's `category` must be this.
  public var category: PreferenceCategory {
    switch self {
    case .maxDistanceMiles, .preferredRegions, .preferredStates: .location
    case .minAcademicRating, .schoolSize: .academic
    case .division, .conferenceType, .scholarshipRequired: .program
    case .mustHave, .niceToHave: .custom
    }
  }

  /// The JSON type of the value.
  public var valueKind: FieldKind {
    switch self {
    case .maxDistanceMiles, .minAcademicRating: .int
    case .preferredRegions, .preferredStates, .division, .conferenceType: .stringList
    case .schoolSize, .mustHave, .niceToHave: .string
    case .scholarshipRequired: .bool
    }
  }

  public var label: String {
    switch self {
    case .maxDistanceMiles: "Max distance (miles)"
    case .preferredRegions: "Preferred regions"
    case .preferredStates: "Preferred states"
    case .minAcademicRating: "Min academic rating"
    case .schoolSize: "School size"
    case .division: "Division"
    case .conferenceType: "Conference type"
    case .scholarshipRequired: "Scholarship required"
    case .mustHave: "Must have"
    case .niceToHave: "Nice to have"
    }
  }

  /// What the value accepts (for list types: what each item accepts).
  public var rule: FieldRule {
    switch self {
    case .maxDistanceMiles: .intRange(50...3000)
    case .preferredRegions: .oneOf(Self.regions)
    case .preferredStates: .usState
    case .minAcademicRating: .intRange(1...5)
    case .schoolSize: .oneOf(Self.schoolSizes)
    case .division: .oneOf(Self.divisions)
    case .conferenceType: .oneOf(Self.conferenceTypes)
    case .scholarshipRequired: .any
    case .mustHave, .niceToHave: .text
    }
  }

  /// The type as a catalog entry: key = JSON type, section = the preference category's title.
  public var spec: FieldSpec {
    FieldSpec(key: rawValue, label: label, section: category.title, kind: valueKind, isOptional: false, rule: rule)
  }

  /// What the value accepts, e.g. `50–3000` or `D1, D2, D3, NAIA or JUCO`.
  public var allowed: String { spec.allowed }

  /// The type a user's name refers to (`max_distance_miles`, `max-distance-miles`, any case).
  public static func named(_ name: String) throws(Validation) -> SchoolPreferenceType {
    try NameMatching.resolve(name, in: allCases, what: "school preference type") { [$0.rawValue] }
  }

  /// `value` as the list shows it: `300 miles`, `4+`, `Yes` / `Not required`, `D1, D3`.
  public func display(_ value: PreferenceValue) -> String {
    switch (self, value) {
    case (.maxDistanceMiles, .int(let miles)): "\(miles) miles"
    case (.minAcademicRating, .int(let rating)): "\(rating)+"
    case (.scholarshipRequired, .bool(let required)): required ? "Yes" : "Not required"
    default: spec.display(value.json) ?? ""
    }
  }
}
