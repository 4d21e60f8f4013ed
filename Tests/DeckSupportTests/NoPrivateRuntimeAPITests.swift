import Foundation
import Testing

/// deck uses no private or underscored runtime API: no hooks into the concurrency runtime or
/// libdispatch, no symbols declared by hand. (argument-parser's documented
/// `_superCommandName` configuration is a library parameter, not a runtime symbol.)
@Suite struct NoPrivateRuntimeAPITests {
  static let forbidden = [
    "swift_task_", "_hook", "_dispatch_", "dispatch_main_queue_callback", "dlsym", "@_silgen_name", "@_cdecl",
    "_swift_",
  ]

  /// Files that may name a forbidden word, and why. The profile photo's libvips is a public
  /// library, loaded with dlopen only when a photo command runs (linking it would load its ~100
  /// libraries at every deck start); its shim looks up libvips's public functions with dlsym.
  static let allowed: [String: Set<String>] = ["Features/Prefs/System/CVips/shim.h": ["dlsym"]]

  @Test func sourcesNameNoPrivateRuntimeSymbol() throws {
    let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources")
    let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
      .filter { [".swift", ".c", ".h"].contains(where: $0.hasSuffix) }
    #expect(files.count > 100, "found the sources")
    var found: [String] = []
    for file in files {
      let text = try String(contentsOfFile: sources.appendingPathComponent(file).path, encoding: .utf8)
      for symbol in Self.forbidden where text.contains(symbol) && !(Self.allowed[file] ?? []).contains(symbol) {
        found.append("\(file): \(symbol)")
      }
    }
    #expect(found.isEmpty, "\(found)")
  }
}
