/// Path text operations, as NSString's path methods did them (which FoundationEssentials does
/// not have): on `/`-separated text, without touching the file system.
public enum PathText {
  /// The path without its last component: `/a/b/c` → `/a/b`, `/a` → `/`, `a` → `` (trailing
  /// slashes ignored).
  public static func parent(_ path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return "" }
    if slash == trimmed.startIndex { return "/" }
    var parent = trimmed[..<slash]
    while parent.count > 1, parent.hasSuffix("/") { parent.removeLast() }
    return String(parent)
  }

  /// The last component: `/a/b/c` → `c`, `/a/b/` → `b`, `/` → `/`.
  public static func lastComponent(_ path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
    guard trimmed != "/", let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
    return String(trimmed[trimmed.index(after: slash)...])
  }

  /// The path without the extension of its last component: `/a/b.json` → `/a/b`,
  /// `/a.d/b` → `/a.d/b`, `/a/.hidden` → `/a/.hidden`.
  public static func deletingExtension(_ path: String) -> String {
    var trimmed = path
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
    let name = lastComponent(trimmed)
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return trimmed }
    return String(trimmed.dropLast(name.distance(from: dot, to: name.endIndex)))
  }

  /// `directory/name`, with one slash between them.
  public static func join(_ directory: String, _ name: String) -> String {
    if directory.isEmpty { return name }
    return directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }
}
