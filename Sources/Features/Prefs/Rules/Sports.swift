import DeckValues

/// A sport of the player details' Sport picker and the positions it offers (preferences.md 2A:
/// "primary position (picker filtered by sport), all positions (multi-select chips)"). The
/// positions are the app's full names; baseball and softball also take their scorebook
/// abbreviations (`SS`, `2B`), and a few sports common short forms, which are stored as the
/// full name.
public struct Sport: Sendable, Equatable {
  public let name: String
  public let positions: [String]
  /// Short forms typed for a position (lower-cased) → the position.
  let aliases: [String: String]

  init(_ name: String, _ positions: [String], aliases: [String: String] = [:]) {
    self.name = name
    self.positions = positions
    self.aliases = aliases
  }

  /// `text` as one of the sport's positions: any case, or a short form; nil when it is none.
  public func position(_ text: String) -> String? {
    let lowered = text.trimmed.lowercased()
    return positions.first { $0.lowercased() == lowered } ?? aliases[lowered]
  }

  /// What a position of the sport may be: `Goalkeeper, Defender, Midfielder or Forward`.
  public var allowed: String { FieldRule.orList(positions) }

  private static let diamond = [
    "Pitcher", "Catcher", "First Base", "Second Base", "Third Base", "Shortstop", "Left Field", "Center Field",
    "Right Field", "Designated Hitter",
  ]
  private static let scorebook = [
    "p": "Pitcher", "c": "Catcher", "1b": "First Base", "2b": "Second Base", "3b": "Third Base", "ss": "Shortstop",
    "lf": "Left Field", "cf": "Center Field", "rf": "Right Field", "dh": "Designated Hitter",
  ]

  /// Every sport of the picker, in its order.
  public static let all: [Sport] = [
    Sport("Baseball", diamond, aliases: scorebook),
    Sport("Softball", diamond, aliases: scorebook),
    Sport(
      "Basketball", ["Point Guard", "Shooting Guard", "Small Forward", "Power Forward", "Center"],
      aliases: [
        "pg": "Point Guard", "sg": "Shooting Guard", "sf": "Small Forward", "pf": "Power Forward", "c": "Center",
      ]),
    Sport(
      "Football",
      [
        "Quarterback", "Running Back", "Wide Receiver", "Tight End", "Offensive Line", "Defensive Line", "Linebacker",
        "Defensive Back", "Kicker", "Punter",
      ],
      aliases: [
        "qb": "Quarterback", "rb": "Running Back", "wr": "Wide Receiver", "te": "Tight End", "ol": "Offensive Line",
        "dl": "Defensive Line", "lb": "Linebacker", "db": "Defensive Back", "k": "Kicker", "p": "Punter",
      ]),
    Sport(
      "Soccer", ["Goalkeeper", "Defender", "Midfielder", "Forward"],
      aliases: ["gk": "Goalkeeper", "def": "Defender", "mid": "Midfielder", "fwd": "Forward"]),
    Sport(
      "Volleyball",
      ["Outside Hitter", "Middle Blocker", "Setter", "Libero", "Opposite Hitter", "Defensive Specialist"]),
    Sport("Track & Field", ["Sprinter", "Distance Runner", "Jumper", "Thrower", "Hurdler"]),
    Sport("Swimming", ["Freestyle", "Backstroke", "Breaststroke", "Butterfly", "Individual Medley", "Diver"]),
    Sport("Cross Country", ["Runner"]),
    Sport("Tennis", ["Singles", "Doubles"]),
    Sport("Golf", ["Golfer"]),
    Sport("Lacrosse", ["Attackman", "Midfielder", "Defenseman", "Goalie"]),
    Sport("Field Hockey", ["Forward", "Midfielder", "Defender", "Goalkeeper"]),
    Sport("Ice Hockey", ["Forward", "Defenseman", "Goalie"]),
    Sport("Wrestling", ["Wrestler"]),
    Sport("Rowing", ["Rower"]),
    Sport("Water Polo", ["Field Player", "Goalkeeper"]),
  ]

  /// The sports' names, as the picker lists them.
  public static let names = all.map(\.name)

  /// Every position of every sport, each once, in the sports' order.
  public static let allPositions: [String] = all.flatMap(\.positions).reduce(into: []) { list, position in
    if !list.contains(position) { list.append(position) }
  }

  /// The sport with exactly this name (as stored), or nil.
  public static func named(_ name: String) -> Sport? { all.first { $0.name == name } }

  /// The sport a user's spelling names (any case), or nil.
  public static func matching(_ text: String) -> Sport? {
    let lowered = text.trimmed.lowercased()
    return all.first { $0.name.lowercased() == lowered }
  }
}

/// Positions belong to the primary sport (the form's picker is filtered by it).
extension PlayerDetails {
  /// The positions spelt as the sport spells them (`ss` → `Shortstop` for baseball), repeats
  /// dropped; unchanged without a known sport.
  func normalizedPositions() -> PlayerDetails {
    guard let sport = primarySport.flatMap(Sport.named) else { return self }
    var copy = self
    copy.primaryPosition = primaryPosition.map { sport.position($0) ?? $0 }
    copy.positions = positions.map { list in
      list.map { sport.position($0) ?? $0 }.reduce(into: []) { kept, position in
        if !kept.contains(position) { kept.append(position) }
      }
    }
    return copy
  }

  /// A problem for the primary position and for each position that is not one of the sport's.
  var positionIssues: [ValidationIssue] {
    guard let sport = primarySport.flatMap(Sport.named) else { return [] }
    let allowed = "a \(sport.name) position: \(sport.allowed)"
    var issues: [ValidationIssue] = []
    if let position = primaryPosition, !sport.positions.contains(position) {
      issues.append(
        .invalid("primaryPosition", JSONValue.quoted(position), "is not a \(sport.name) position", allowed: allowed))
    }
    for position in positions ?? [] where !sport.positions.contains(position) {
      issues.append(
        .invalid("positions", JSONValue.quoted(position), "is not a \(sport.name) position", allowed: allowed))
    }
    return issues
  }
}

/// A change of sport alone leaves the positions of the old one, which the new sport refuses.
extension PlayerDetails {
  /// What to do when `assignments` change the sport and `validation` refuses positions they do
  /// not set (the stored ones): give the new sport's positions in the same command (an example
  /// line), or clear them. nil otherwise.
  public static func sportChangeHint(_ assignments: [String], _ validation: Validation) -> String? {
    let parsed = assignments.compactMap { text in try? assignment(text) }
    guard case .string(let name)? = parsed.first(where: { $0.key == "primarySport" })?.value,
      let sport = Sport.matching(name)
    else { return nil }
    let positionFields = ["primaryPosition", "positions"]
    // The refused positions this command does not set: the stored ones, of the old sport.
    let stale = Set(validation.issues.map(\.field)).intersection(positionFields).subtracting(parsed.map(\.key))
    guard !stale.isEmpty else { return nil }
    func word(_ text: String) -> String { text.contains(" ") ? "\"\(text)\"" : text }
    let example = [
      "sport=\(word(sport.name))", "primaryPosition=\(word(sport.positions[0]))",
      "positions=\(word(sport.positions.prefix(2).joined(separator: ",")))",
    ]
    return
      "The stored positions are not \(sport.name) positions: change them in the same command, e.g.: deck prefs set player \(example.joined(separator: " ")) (or clear them: primaryPosition= positions=)"
  }
}
