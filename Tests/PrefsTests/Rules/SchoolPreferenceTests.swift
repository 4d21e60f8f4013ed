import DeckValues
import Foundation
import PrefsRules
import Testing

@Suite("School preference types and values")
struct SchoolPreferenceTests {
  @Test(
    "each type's category and JSON value type, as the spec's table",
    arguments: [
      (SchoolPreferenceType.maxDistanceMiles, PreferenceCategory.location, FieldKind.int),
      (.preferredRegions, .location, .stringList), (.preferredStates, .location, .stringList),
      (.minAcademicRating, .academic, .int), (.schoolSize, .academic, .string), (.division, .program, .stringList),
      (.conferenceType, .program, .stringList), (.scholarshipRequired, .program, .bool),
      (.mustHave, .custom, .string), (.niceToHave, .custom, .string),
    ])
  func table(type: SchoolPreferenceType, category: PreferenceCategory, kind: FieldKind) {
    #expect(type.category == category)
    #expect(type.valueKind == kind)
    #expect(!type.label.isEmpty)
  }

  @Test("JSON names of the types and categories")
  func rawValues() {
    #expect(
      SchoolPreferenceType.allCases.map(\.rawValue) == [
        "max_distance_miles", "preferred_regions", "preferred_states", "min_academic_rating", "school_size", "division",
        "conference_type", "scholarship_required", "must_have", "nice_to_have",
      ])
    #expect(PreferenceCategory.allCases.map(\.rawValue) == ["location", "academic", "program", "custom"])
  }

  @Test("allowed values of the enumerated types")
  func allowed() {
    #expect(SchoolPreferenceType.maxDistanceMiles.allowed == "50–3000")
    #expect(SchoolPreferenceType.minAcademicRating.allowed == "1–5")
    #expect(
      SchoolPreferenceType.preferredRegions.allowed
        == "Northeast, Southeast, Midwest, Southwest, West Coast or Pacific NW")
    #expect(SchoolPreferenceType.division.allowed == "D1, D2, D3, NAIA or JUCO")
    #expect(SchoolPreferenceType.conferenceType.allowed == "Power 4, Group of 5, Mid-Major or Small Conference")
    #expect(SchoolPreferenceType.schoolSize.allowed == "small, medium, large or very_large")
    #expect(SchoolPreferenceType.preferredStates.spec.completions.count == 51)
  }

  @Test(
    "values encode as plain JSON values, and decode by type",
    arguments: [
      (SchoolPreferenceType.maxDistanceMiles, PreferenceValue.int(300), "300"),
      (.preferredRegions, .strings(["Midwest", "West Coast"]), #"["Midwest","West Coast"]"#),
      (.preferredStates, .strings(["CA"]), #"["CA"]"#), (.minAcademicRating, .int(4), "4"),
      (.schoolSize, .string("very_large"), #""very_large""#), (.division, .strings(["D1", "D3"]), #"["D1","D3"]"#),
      (.conferenceType, .strings(["Power 4"]), #"["Power 4"]"#), (.scholarshipRequired, .bool(true), "true"),
      (.mustHave, .string("Engineering"), #""Engineering""#),
      (.niceToHave, .string("Near a beach"), #""Near a beach""#),
    ])
  func valueCoding(type: SchoolPreferenceType, value: PreferenceValue, plain: String) throws {
    let preference = SchoolPreference(id: "a", type: type, value: value, priority: 1)
    let object = try encodedObject(preference)
    #expect(object["value"] == JSONValue.parse(jsonData(plain)))
    #expect(object["type"] == .string(type.rawValue))
    #expect(object["category"] == .string(type.category.rawValue))
    #expect(object["isDealbreaker"] == .bool(false))
    #expect(Set(object.keys) == ["id", "category", "type", "value", "priority", "isDealbreaker"])
    let text =
      #"{"id":"a","category":"\#(type.category.rawValue)","type":"\#(type.rawValue)","value":\#(plain),"priority":1,"isDealbreaker":false}"#
    #expect(try JSONDecoder().decode(SchoolPreference.self, from: jsonData(text)) == preference)
  }

  @Test("a value of the wrong JSON type for its type is refused, naming the preference")
  func wrongValueType() {
    let text =
      #"{"preferences": [{"id":"a","category":"location","type":"max_distance_miles","value":"300","priority":1,"isDealbreaker":false}]}"#
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(SchoolPreferences.self, from: jsonData(text)) }
    let (_, issues) = SchoolPreferences.read(JSONValue.parse(jsonData(text)) ?? .null)
    #expect(
      issues.map(\.message) == [#"preference 1 max_distance_miles: "300" is not a whole number; allowed 50–3000"#])
  }

  @Test(
    "value bounds and options per type",
    arguments: [
      ("max_distance_miles", "50", nil), ("max_distance_miles", "3000", nil),
      ("max_distance_miles", "49", "max_distance_miles: 49 is out of range; allowed 50–3000"),
      ("max_distance_miles", "3001", "max_distance_miles: 3001 is out of range; allowed 50–3000"),
      ("min_academic_rating", "1", nil), ("min_academic_rating", "5", nil),
      ("min_academic_rating", "0", "min_academic_rating: 0 is out of range; allowed 1–5"),
      ("min_academic_rating", "6", "min_academic_rating: 6 is out of range; allowed 1–5"),
      ("preferred_regions", "Pacific NW, west coast", nil),
      (
        "preferred_regions", "Midwest, Mars",
        #"preferred_regions: "Mars" is not allowed; use Northeast, Southeast, Midwest, Southwest, West Coast or Pacific NW"#
      ),
      ("preferred_states", "ca, TX", nil),
      (
        "preferred_states", "CA, ZZ",
        #"preferred_states: "ZZ" is not a US state code; use a 2-letter US state or DC code, e.g. CA"#
      ),
      ("division", "d1,naia,JUCO", nil),
      ("division", "D4", #"division: "D4" is not allowed; use D1, D2, D3, NAIA or JUCO"#),
      ("division", " , ", "division: [] is empty; use at least one of D1, D2, D3, NAIA or JUCO"),
      ("conference_type", "power 4, Mid-Major", nil),
      (
        "conference_type", "Ivy",
        #"conference_type: "Ivy" is not allowed; use Power 4, Group of 5, Mid-Major or Small Conference"#
      ),
      ("school_size", "Very_Large", nil),
      ("school_size", "huge", #"school_size: "huge" is not allowed; use small, medium, large or very_large"#),
      ("scholarship_required", "yes", nil), ("scholarship_required", "no", nil),
      ("scholarship_required", "maybe", #"scholarship_required: "maybe" is not true or false"#),
      ("must_have", "Engineering program", nil),
      ("must_have", "   ", #"must_have: "" is empty; use text of up to 200 characters"#),
      ("nice_to_have", "", #"nice_to_have: "" is empty; use text of up to 200 characters"#),
      ("max_distance_miles", "abc", #"max_distance_miles: "abc" is not a whole number; allowed 50–3000"#),
      ("max_distance_miles", "300.5", #"max_distance_miles: "300.5" is not a whole number; allowed 50–3000"#),
    ] as [(String, String, String?)])
  func valueRules(type: String, value: String, message: String?) {
    #expect(
      refusal { () throws(Validation) in try SchoolCriterion.parse(type: type, value: value) }
        == (message.map { [$0] } ?? []))
  }

  @Test("parsed values are put in their canonical spelling")
  func canonical() throws {
    #expect(try SchoolCriterion.parse(type: "division", value: "d1, d3, D1").value == .strings(["D1", "D3"]))
    #expect(try SchoolCriterion.parse(type: "preferred-states", value: "ca,tx").value == .strings(["CA", "TX"]))
    #expect(
      try SchoolCriterion.parse(type: "CONFERENCE_TYPE", value: "power 4,group of 5").value
        == .strings(["Power 4", "Group of 5"]))
    #expect(try SchoolCriterion.parse(type: "school_size", value: "Very_Large").value == .string("very_large"))
    #expect(try SchoolCriterion.parse(type: "scholarship_required", value: "Yes").value == .bool(true))
    #expect(try SchoolCriterion.parse(type: "max_distance_miles", value: " 300 ").value == .int(300))
  }

  @Test("unknown types suggest the nearest")
  func unknownType() {
    #expect(
      refusal { () throws(Validation) in try SchoolCriterion.parse(type: "distance", value: "300") } == [
        "distance: unknown school preference type; did you mean max_distance_miles?"
      ])
    #expect(
      refusal { () throws(Validation) in try SchoolCriterion.parse(type: "divison", value: "D1") } == [
        "divison: unknown school preference type; did you mean division?"
      ])
  }

  @Test("the list is checked: ids present and unique, category matching type, priorities 1…n")
  func listValidation() {
    let list = SchoolPreferences(preferences: [
      SchoolPreference(id: "a", type: .maxDistanceMiles, value: .int(300), priority: 1, category: .academic),
      SchoolPreference(id: "a", type: .division, value: .strings(["D1"]), priority: 1),
      SchoolPreference(id: "", type: .mustHave, value: .string("Nursing"), priority: 3),
      SchoolPreference(id: "d", type: .minAcademicRating, value: .string("4"), priority: 4),
    ])
    #expect(
      list.validate().messages == [
        #"preference 1 category: "academic" does not match type max_distance_miles; use location"#,
        #"preference 2 id: "a" is also the id of preference 1; use a unique id"#,
        #"preference 3 id: "" is empty; use text of up to 200 characters"#,
        #"preference 4 min_academic_rating: "4" is not a whole number; allowed 1–5"#,
        "priorities: [1, 1, 3, 4] are not numbered 1 to 4; use 1–4, each once",
      ])
  }

  @Test("priorities may be stored in any order, as long as they are 1…n")
  func priorityOrder() {
    let list = SchoolPreferences(preferences: [
      SchoolPreference(id: "a", type: .maxDistanceMiles, value: .int(300), priority: 2),
      SchoolPreference(id: "b", type: .division, value: .strings(["D1"]), priority: 1),
    ])
    #expect(list.validate() == .valid)
    #expect(list.ordered.map(\.id) == ["b", "a"])
    #expect(SchoolPreferences().validate() == .valid)
  }

  @Test("summaries show the list row")
  func summaries() {
    #expect(SchoolPreference(id: "a", type: .maxDistanceMiles, value: .int(300), priority: 1).summary == "1. 300 miles")
    #expect(
      SchoolPreference(id: "b", type: .division, value: .strings(["D1", "D3"]), priority: 2, isDealbreaker: true)
        .summary
        == "2. D1, D3 (dealbreaker)")
    #expect(
      SchoolPreference(id: "c", type: .scholarshipRequired, value: .bool(false), priority: 3).summary
        == "3. Not required")
    #expect(SchoolPreference(id: "d", type: .minAcademicRating, value: .int(4), priority: 4).summary == "4. 4+")
  }

  @Test("the list round-trips; nil templateUsed and lastUpdated are omitted")
  func listCoding() throws {
    let list = SchoolPreferences(
      preferences: [
        SchoolPreference(id: "a", type: .division, value: .strings(["D2"]), priority: 1, isDealbreaker: true)
      ],
      templateUsed: "Close to Home")
    let object = try encodedObject(list)
    #expect(Set(object.keys) == ["preferences", "templateUsed"])
    #expect(try JSONDecoder().decode(SchoolPreferences.self, from: JSONEncoder().encode(list)) == list)
    #expect(try encodedJSON(SchoolPreferences.defaults) == .object(["preferences": .array([])]))
  }
}
