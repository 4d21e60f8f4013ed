import ArgumentParser

/// How a line is parsed: by the deepest command its leading words name, else by the root.
enum LineParser {
  /// Parses a line. The common case, a line naming a top-level command, is parsed against that
  /// command's subtree only: swift-argument-parser reflects over every type of the tree it is
  /// given, and in a binary this size each first reflection of a type costs a scan of all
  /// protocol conformances. Anything the subtree cannot parse (a typo, `--help`, options placed
  /// before the command name, `--version`) is parsed again from the root, so errors and help
  /// are exactly the root's.
  ///
  /// The subtree is the deepest command the leading words name (`brokerage search keller` is
  /// parsed by `search` alone), found through the commands' static configurations, which
  /// reflect nothing: each command level parsed costs a reflection of its arguments (and of
  /// argument-parser's own completion-script pseudo-commands), on every line of a script.
  static func parse<Root: ParsableCommand>(_ root: Root.Type, _ arguments: [String]) throws -> any ParsableCommand {
    try answerCompletionInSubtree(root, arguments)
    if !needsTheRoot(arguments), let (subtree, rest) = deepestCommand(root, arguments),
      let command = try? subtree.parseAsRoot(rest), command is any DeckCommand
    {
      return command
    }
    return try root.parseAsRoot(arguments)
  }

  /// A shell's completion request for an argument of a command it names
  /// (`---completion brokerage search -- positional@0 …`), answered by that command alone, as
  /// a one-shot line is: from the root, argument-parser would build the whole tree first, and
  /// with it every command's configuration and help text (bench/README.md has the cost). The
  /// answer is thrown, as argument-parser throws it, an empty one too (a lookup past its
  /// budget: asking the root again would ask the backend twice); a request the command cannot
  /// parse returns, and the root answers it.
  static func answerCompletionInSubtree<Root: ParsableCommand>(_ root: Root.Type, _ arguments: [String]) throws {
    guard CompletionRequest.isCompletionRequest(arguments), let dashes = arguments.firstIndex(of: "--"), dashes > 1,
      let (command, rest) = deepestCommand(root, Array(arguments[1..<dashes])), rest.isEmpty
    else { return }
    do {
      _ = try command.parseAsRoot(["---completion"] + arguments[dashes...])
    } catch  where command.exitCode(for: error) == .success {
      throw error
    } catch {
      return
    }
  }

  /// Whether only the root parses `arguments` right: help (its text and errors are the
  /// root's), or `--` (after which no word is a command name).
  static func needsTheRoot(_ arguments: [String]) -> Bool {
    arguments.contains { $0 == "-h" || $0 == "--help" || $0 == "help" || $0 == "--" }
  }

  /// The deepest command named by the leading words of `arguments`, and the words after them
  /// (nil when the first word names no subcommand).
  static func deepestCommand(_ root: any ParsableCommand.Type, _ arguments: [String]) -> (
    any ParsableCommand.Type, [String]
  )? {
    var node = root
    var index = 0
    while index < arguments.count, let next = subcommand(of: node, named: arguments[index]) {
      node = next
      index += 1
    }
    return index == 0 ? nil : (node, Array(arguments[index...]))
  }

  /// The subcommand of `command` called `name` (or with that alias), from its configuration.
  static func subcommand(of command: any ParsableCommand.Type, named name: String) -> (any ParsableCommand.Type)? {
    guard !name.hasPrefix("-") else { return nil }
    return command.configuration.subcommands.first {
      $0._commandName == name || $0.configuration.aliases.contains(name)
    }
  }

  /// `--trace=body` is spelled as a hidden flag for the parser; everything else is untouched.
  static func normalize(_ arguments: [String]) -> [String] {
    var result: [String] = []
    result.reserveCapacity(arguments.count)
    for (index, argument) in arguments.enumerated() {
      if argument == "--" {
        result += arguments[index...]
        break
      }
      result.append(argument == "--trace=body" ? "--trace-body" : argument)
    }
    return result
  }
}
