import ArgumentParser
import DeckSupport

/// Usage errors that help, as git and gh do: a word where a subcommand belongs that names none
/// is reported with the nearest names ("did you mean `search`?"), with `--help` too.
public enum UsageHelp {
  /// A mistyped subcommand: the word, the command it follows, and the nearest real names.
  public struct UnknownCommand: Equatable, Sendable {
    public var word: String
    public var path: [String]
    public var suggestions: [String]

    public var error: DeckError {
      let parent = path.joined(separator: " ")
      let message = "Unknown command '\(word)' for '\(parent)'."
      let suggestion =
        suggestions.isEmpty
        ? "" : "Did you mean \(suggestions.map { "'\($0)'" }.joined(separator: " or "))? "
      return DeckError.usage(message, hint: "\(suggestion)See '\(parent) --help' for its commands.")
    }
  }

  /// The first word that stands where a subcommand belongs and names none, or nil when every
  /// such word names a subcommand (options and their values are skipped).
  public static func unknownCommand(in tree: CommandTree, arguments: [String]) -> UnknownCommand? {
    var node = tree
    var path = [tree.commandName]
    var words = arguments[...]
    // `deck help brokerage serch` asks for help on that path.
    if words.first == "help" { words = words.dropFirst() }
    while let word = words.first {
      words = words.dropFirst()
      if word == "--" { return nil }
      if word.hasPrefix("-") {
        if !word.contains("="), node.namedArgument(word)?.kind == .option { words = words.dropFirst() }
        continue
      }
      let subcommands = node.subcommands ?? []
      guard !subcommands.isEmpty, node.positionals.isEmpty else { return nil }
      if let next = node.subcommand(named: word) {
        node = next
        path.append(next.commandName)
        continue
      }
      if word == "help" { return nil }
      return UnknownCommand(word: word, path: path, suggestions: nearest(word, among: node.visibleSubcommands))
    }
    return nil
  }

  /// The commands whose name or an alias is within two edits of `word` (or starts with it),
  /// nearest first, by their names.
  static func nearest(_ word: String, among commands: [CommandTree]) -> [String] {
    let scored = commands.compactMap { command -> (String, Int)? in
      let distances = ([command.commandName] + (command.aliases ?? [])).compactMap { distance(word, $0) }
      return distances.min().map { (command.commandName, $0) }
    }
    return scored.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }.prefix(3).map(\.0)
  }

  /// How far `word` is from `name`: the edit distance when it is small enough for a typo of a
  /// name that long, one more than that for a prefix of at least two letters, else nil.
  static func distance(_ word: String, _ name: String) -> Int? {
    let word = word.lowercased()
    let name = name.lowercased()
    let distance = editDistance(word, name)
    let limit = max(1, min(2, name.count / 3))
    if distance <= limit { return distance }
    if word.count >= 2, name.hasPrefix(word) { return limit + 1 }
    return nil
  }

  /// Levenshtein distance, with a swap of two neighbours counting as one edit.
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { rows[i][0] = i }
    for j in 0...b.count { rows[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
        }
      }
    }
    return rows[a.count][b.count]
  }
}
