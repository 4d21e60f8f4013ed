/// External plugins (`deck-NAME` on PATH) and their name clashes: with a built-in command
/// (which always wins), with a REPL built-in, and with another plugin earlier on PATH.
enum PluginCheck {
  /// `executables`: every `deck-*` on PATH in lookup order; `commands`: deck's command names;
  /// `replBuiltins`: the REPL's own words (help, history, …).
  static func evaluate(
    executables: [(name: String, path: String)], commands: Set<String>, replBuiltins: Set<String>
  ) -> DoctorCheck {
    let name = "plugins"
    guard !executables.isEmpty else { return .ok(name, "none on PATH") }
    var winners: [String: String] = [:]
    var order: [String] = []
    var problems: [(text: String, fix: String)] = []
    for (plugin, path) in executables {
      if let winner = winners[plugin] {
        problems.append(("\(path) is hidden by \(winner), earlier on PATH", "rm \(path)  (or rename it)"))
        continue
      }
      winners[plugin] = path
      order.append(plugin)
      let renamed = "mv \(path) \((path as String).dropLast(plugin.count))\(plugin)-plugin"
      if commands.contains(plugin) {
        problems.append(("\(path) never runs: the built-in `deck \(plugin)` wins", renamed))
      } else if replBuiltins.contains(plugin) {
        problems.append(("\(path) runs one-shot only: in the REPL, `\(plugin)` is a built-in", renamed))
      }
    }
    let listed = order.map { "\($0) (\(winners[$0] ?? ""))" }.joined(separator: ", ")
    guard let first = problems.first else { return .ok(name, listed) }
    return .warning(name, ([listed] + problems.map(\.text)).joined(separator: "; "), fix: first.fix)
  }
}
