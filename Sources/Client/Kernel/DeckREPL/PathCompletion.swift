import FoundationEssentials

/// File and directory names for the word being typed, as a shell completes them: the word's
/// directory part kept as typed (`~/` included), directories ending in `/` so that Tab goes on
/// into them, hidden entries only when the word's last part starts with a dot.
public enum PathCompletion {
  /// What an argument names.
  public enum Kind: Sendable, Equatable {
    /// A file with one of these extensions (none: any file); directories are offered to go into.
    case files(extensions: [String])
    /// Directories only.
    case directories

    public static let anyFile = Kind.files(extensions: [])
  }

  /// The entries that complete `prefix`, sorted. `home` expands a leading `~/`.
  public static func candidates(prefix: String, kind: Kind, home: String?) -> [String] {
    let slash = prefix.lastIndex(of: "/")
    let directory = slash.map { String(prefix[...$0]) } ?? ""
    let partial = slash.map { String(prefix[prefix.index(after: $0)...]) } ?? prefix
    let listed = directory.isEmpty ? "." : REPL.absolutePath(directory, home: home)
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: listed) else { return [] }
    return entries.filter { $0.hasPrefix(partial) && (partial.hasPrefix(".") || !$0.hasPrefix(".")) }.sorted()
      .compactMap { name in
        var isDirectory = false
        let found = FileManager.default.fileExists(atPath: listed + "/" + name, isDirectory: &isDirectory)
        if found && isDirectory { return directory + name + "/" }
        guard case .files(let extensions) = kind else { return nil }
        guard extensions.isEmpty || extensions.contains(where: { name.lowercased().hasSuffix("." + $0.lowercased()) })
        else { return nil }
        return directory + name
      }
  }
}
