import Foundation
import PackagePlugin

/// Embeds the QA scenarios deck ships, every feature's `Sources/Features/<Name>/QA/*.yaml`
/// (scenario files and its `rows.yaml`), in the target that uses this plugin, as
/// `EmbeddedScenarios.files` (path under Sources/Features, text), so that `deck qa` runs them
/// wherever deck is installed and a new scenario file is included without a line to add.
/// Plugins/embed-list.sh writes the Swift file.
@main
struct EmbedScenarios: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
    let features = context.package.directoryURL.appending(path: "Sources/Features")
    let manager = FileManager.default
    let names = (try? manager.contentsOfDirectory(atPath: features.path(percentEncoded: false))) ?? []
    var files: [(String, URL)] = []
    for feature in names.sorted() where !feature.hasPrefix(".") {
      let folder = features.appending(path: "\(feature)/QA")
      let entries = (try? manager.contentsOfDirectory(atPath: folder.path(percentEncoded: false))) ?? []
      for entry in entries.sorted() where entry.hasSuffix(".yaml") && !entry.hasPrefix(".") {
        files.append(("\(feature)/QA/\(entry)", folder.appending(path: entry)))
      }
    }
    let script = context.package.directoryURL.appending(path: "Plugins/embed-list.sh")
    let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedScenarios.swift")
    return [
      .buildCommand(
        displayName: "Embedding \(files.count) QA scenario files",
        executable: URL(filePath: "/bin/sh"),
        arguments: [
          script.path(percentEncoded: false), output.path(percentEncoded: false), "EmbeddedScenarios",
          "Every shipped QA file: its path under Sources/Features and its text.",
        ] + files.flatMap { [$0.0, $0.1.path(percentEncoded: false)] },
        inputFiles: [script] + files.map(\.1),
        outputFiles: [output])
    ]
  }
}
