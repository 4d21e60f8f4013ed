import PrefsRules

/// Help text generated from the catalog, the same field definitions validation uses: the keys
/// `deck prefs set` takes, each with its type and what it allows, and the school preference
/// types. Lines are wrapped here, at `width`, with a hanging indent, so that the argument parser
/// (which would wrap a long list item back to the margin) keeps them as they are.
enum PrefsHelp {
  /// The widest line: within an 80-column terminal, and within a man page's indented text.
  static let width = 70

  /// Every category that takes key=value, then its keys: `key (type): allowed`, consecutive
  /// keys that take the same grouped on one row.
  static var setKeys: String {
    PrefsCategory.allCases.filter(\.acceptsAssignments).map { category in
      "\(category.rawValue):\n" + rows(category.fields).joined(separator: "\n")
    }.joined(separator: "\n\n")
  }

  /// `key (type): allowed` rows of `fields`, keys with the same type, rule and toggle grouped.
  static func rows(_ fields: [FieldSpec]) -> [String] {
    var groups: [[FieldSpec]] = []
    for spec in fields {
      if let last = groups.last?.last, last.kind == spec.kind, last.rule == spec.rule, last.parent == spec.parent,
        last.aliases.isEmpty, spec.aliases.isEmpty, last.section == spec.section
      {
        groups[groups.count - 1].append(spec)
      } else {
        groups.append([spec])
      }
    }
    return groups.flatMap { group -> [String] in
      guard let spec = group.first else { return [] }
      let keys = group.map(\.key).joined(separator: ", ")
      var text = "\(keys) (\(spec.kind.jsonType)): \(spec.allowed)"
      if !spec.aliases.isEmpty { text += "; also \(spec.aliases.joined(separator: ", "))" }
      if let parent = spec.parent { text += "; only while \(parent) is on" }
      return wrapped(text, indent: 2, hanging: 6)
    }
  }

  /// The school preference types: `type (value type): allowed`.
  static var schoolTypes: String {
    SchoolPreferenceType.allCases.flatMap { type in
      let kind = type.valueKind == .stringList ? "a list, each" : type.valueKind.jsonType
      return wrapped("\(type.rawValue) (\(kind)): \(type.allowed)", indent: 2, hanging: 6)
    }.joined(separator: "\n")
  }

  /// `text` in lines of at most `width` columns, broken at spaces: the first indented by
  /// `indent`, the others by `hanging`. A word longer than a line is kept whole.
  static func wrapped(_ text: String, indent: Int, hanging: Int) -> [String] {
    var lines: [String] = []
    var line = String(repeating: " ", count: indent)
    var lineHasWord = false
    for word in text.split(separator: " ", omittingEmptySubsequences: true) {
      if lineHasWord && line.count + 1 + word.count > width {
        lines.append(line)
        line = String(repeating: " ", count: hanging)
        lineHasWord = false
      }
      line += (lineHasWord ? " " : "") + word
      lineHasWord = true
    }
    lines.append(line)
    return lines
  }
}
