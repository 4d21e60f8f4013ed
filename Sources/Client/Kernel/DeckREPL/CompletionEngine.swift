import DeckCore

/// What to offer for the word under the cursor: pure, given the command tree, the names the
/// REPL adds (built-ins, plugins) and a way to ask the argument parser for dynamic values.
public struct CompletionEngine: Sendable {
  public let tree: CommandTree
  /// Extra first words (REPL built-ins and external plugins).
  public let extraCommands: [String]
  /// Runs a `---completion` request: subcommand path, argument identifier, all words, the
  /// index of the word being completed, and its text.
  public let dynamic:
    @Sendable (_ path: [String], _ argument: String, _ words: [String], _ index: Int, _ prefix: String) -> [String]
  /// The file or directory names that complete a prefix (``PathCompletion``), for the
  /// arguments that name files.
  public let paths: @Sendable (_ prefix: String, _ kind: PathCompletion.Kind) -> [String]

  public init(
    tree: CommandTree, extraCommands: [String] = [],
    dynamic: @escaping @Sendable ([String], String, [String], Int, String) -> [String],
    paths: @escaping @Sendable (String, PathCompletion.Kind) -> [String]
  ) {
    self.tree = tree
    self.extraCommands = extraCommands
    self.dynamic = dynamic
    self.paths = paths
  }

  /// Candidates for `current`, given the finished words before it (a leading `deck` is allowed).
  public func candidates(words: [String], current: String) -> [String] {
    var words = words
    if words.first == tree.commandName { words.removeFirst() }
    var node = tree
    var path: [String] = []
    var positionalIndex = 0
    var pendingOption: CommandTree.Argument?
    var afterTerminator = false
    for word in words {
      if let option = pendingOption {
        pendingOption = nil
        _ = option
        continue
      }
      if word == "--" {
        afterTerminator = true
        continue
      }
      if !afterTerminator && word.hasPrefix("-") {
        let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
        if let argument = node.namedArgument(name), argument.kind == .option, !word.contains("=") {
          pendingOption = argument
        }
        continue
      }
      if positionalIndex == 0, let child = node.subcommand(named: word) {
        node = child
        path.append(child.commandName)
        continue
      }
      if let positional = node.positionals[safe: positionalIndex], positional.isRepeating {
        continue
      }
      positionalIndex += 1
    }
    let allWords = [tree.commandName] + words + [current]
    if let option = pendingOption {
      return values(
        for: option, identifier: option.completionIdentifier(positionalIndex: 0), path: path, allWords, current)
    }
    if !afterTerminator && current.hasPrefix("-") {
      if let equals = current.firstIndex(of: "="), let option = node.namedArgument(String(current[..<equals])) {
        let prefix = String(current[current.index(after: equals)...])
        return values(
          for: option, identifier: option.completionIdentifier(positionalIndex: 0), path: path, allWords, prefix
        )
        .map { "\(current[...equals])\($0)" }
      }
      let names = (node.arguments ?? []).filter { $0.kind != .positional && $0.shouldDisplay }
        .compactMap {
          $0.preferredName?.kind == "long" ? $0.preferredName?.spelled : $0.names?.first { $0.kind == "long" }?.spelled
        }
      return (names + ["--help"]).filter { $0.hasPrefix(current) }.uniqued()
    }
    var result: [String] = []
    if positionalIndex == 0 {
      result += node.visibleSubcommands.map(\.commandName).filter { $0.hasPrefix(current) }
      if path.isEmpty { result += extraCommands.filter { $0.hasPrefix(current) } }
    }
    if let positional = node.positionals[safe: positionalIndex] {
      result += values(
        for: positional, identifier: positional.completionIdentifier(positionalIndex: positionalIndex), path: path,
        allWords, current)
    }
    return result.uniqued()
  }

  private func values(
    for argument: CommandTree.Argument, identifier: String, path: [String], _ words: [String], _ prefix: String
  ) -> [String] {
    if let values = argument.allValues, !values.isEmpty {
      return values.filter { $0.lowercased().hasPrefix(prefix.lowercased()) }
    }
    switch argument.completionKind {
    case .list(let values)?:
      return values.filter { $0.lowercased().hasPrefix(prefix.lowercased()) }
    case .custom?:
      return dynamic(path, identifier, words, words.count - 1, prefix)
    case .file(let extensions)?:
      return paths(prefix, .files(extensions: extensions))
    case .directory?:
      return paths(prefix, .directories)
    default:
      return []
    }
  }
}

extension Array {
  subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

extension Array where Element: Hashable {
  func uniqued() -> [Element] {
    var seen = Set<Element>()
    return filter { seen.insert($0).inserted }
  }
}
