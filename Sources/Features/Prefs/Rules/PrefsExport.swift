import DeckValues
import FoundationEssentials

/// An export file: `{"version": 1, "categories": {"player": {…}, "school": {…}, …}}` with any subset
/// of the categories. Import reads it with `parse(_:)`, which refuses the whole file if any part is
/// wrong (unknown keys included, so that a misspelt one is not dropped silently), so nothing is
/// sent unless everything is valid. Keys a category always has may be left out: they take the
/// defaults.
public struct PrefsExport: Sendable, Equatable, Codable {
  public static let currentVersion = 1

  public var version: Int
  public var categories: [PrefsCategory: PrefsValue]

  /// A document of the current version holding `values` (a later value of a category replaces an earlier one).
  public init(_ values: [PrefsValue]) {
    version = Self.currentVersion
    categories = Dictionary(values.map { ($0.category, $0) }, uniquingKeysWith: { _, last in last })
  }

  /// The values in category order.
  public var values: [PrefsValue] { PrefsCategory.allCases.compactMap { categories[$0] } }

  /// The problems of every category present, as they are (`parse` normalises first); only
  /// categories with problems are listed.
  public func validateAll() -> [PrefsCategory: Validation] {
    categories.compactMapValues { value in
      let validation = value.validate()
      return validation.isValid ? nil : validation
    }
  }

  /// An import file read, normalised and validated: the document, or every problem of every part.
  /// A school preference without an id or a priority is a new one (as in `deck prefs edit`):
  /// it gets an id from `newID` and the priorities after the highest given, in file order.
  public static func parse(_ data: Data, newID: () -> String = { UUID().uuidString.lowercased() })
    throws(PrefsExportProblems)
    -> PrefsExport
  {
    guard let json = JSONValue.parse(data) else {
      throw PrefsExportProblems(document: [
        ValidationIssue(
          field: "document", value: "", problem: "is not valid JSON", advice: "use \(shape)", allowed: shape)
      ])
    }
    let (document, problems) = read(json, newID: newID)
    if !problems.isEmpty { throw problems }
    return document
  }

  static let shape = "{\"version\": 1, \"categories\": {\"player\": {…}, …}}"

  /// `json` as a document, its values normalised, naming every problem of its shape and of each
  /// category's fields and values.
  static func read(_ json: JSONValue, newID: () -> String) -> (PrefsExport, PrefsExportProblems) {
    var document = PrefsExport([])
    var problems = PrefsExportProblems()
    guard case .object(let object) = json else {
      problems.document.append(.invalid("document", json.literal, "is not a JSON object", allowed: shape))
      return (document, problems)
    }
    for key in object.keys.sorted() where key != "version" && key != "categories" {
      problems.document.append(NameMatching.unknown(key, what: "document key", candidates: ["version", "categories"]))
    }
    switch object["version"] {
    case nil, .null: problems.document.append(.missing("version", allowed: String(currentVersion)))
    case .some(let raw) where FieldKind.int.coerce(raw) == .int(currentVersion): break
    case .some(let raw): problems.document.append(.notAllowed("version", raw.literal, allowed: String(currentVersion)))
    }
    switch object["categories"] {
    case nil, .null:
      problems.document.append(.missing("categories", allowed: "an object of categories, e.g. \(shape)"))
    case .object(let values):
      for (name, json) in values.entries.sorted(by: { $0.key < $1.key }) {
        guard let category = PrefsCategory(rawValue: name) else {
          let names = PrefsCategory.allCases.map(\.rawValue)
          problems.document.append(NameMatching.unknown(name, what: "category", candidates: names))
          continue
        }
        let json = category == .school ? SchoolPreferences.numberingNewRows(json, newID: newID) : json
        // Every problem of the category at once: its keys, its types and its values.
        let (value, read) = PrefsValue.readAll(json, as: category)
        let issues = read + PrefsValue.shapeIssues(json, as: category, .noUnknownKeys)
        document.categories[category] = value
        if !issues.isEmpty { problems.categories[category] = Validation(issues) }
      }
    case .some(let other):
      problems.document.append(.invalid("categories", other.literal, "is not a JSON object", allowed: shape))
    }
    return (document, problems)
  }

  public init(from decoder: any Decoder) throws {
    let (document, problems) = Self.read(try JSONValue(from: decoder)) { UUID().uuidString.lowercased() }
    guard problems.isEmpty else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath, debugDescription: problems.messages.joined(separator: "; ")))
    }
    self = document
  }

  private enum CodingKeys: String, CodingKey { case version, categories }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(version, forKey: .version)
    try container.encode(
      Dictionary(uniqueKeysWithValues: categories.map { ($0.key.rawValue, $0.value) }), forKey: .categories)
  }
}

/// Why an import file is refused: problems of the document itself and of each category.
public struct PrefsExportProblems: Error, Sendable, Equatable, CustomStringConvertible {
  /// Not JSON, wrong shape or version, unknown categories.
  public var document: [ValidationIssue]
  /// Wrongly typed or invalid fields, per category.
  public var categories: [PrefsCategory: Validation]

  public init(document: [ValidationIssue] = [], categories: [PrefsCategory: Validation] = [:]) {
    self.document = document
    self.categories = categories
  }

  public var isEmpty: Bool { document.isEmpty && categories.values.allSatisfy(\.isValid) }

  /// `messages`, at most `Validation.shownLimit` of them, then how many more.
  public var listed: [String] { Validation.capped(messages) }

  /// The document's messages, then each category's as `category: message`, in category order.
  public var messages: [String] {
    document.map(\.message)
      + PrefsCategory.allCases.flatMap { category in
        (categories[category]?.messages ?? []).map { "\(category.rawValue): \($0)" }
      }
  }

  public var description: String { messages.joined(separator: "\n") }
}
