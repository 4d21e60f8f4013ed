import Foundation
import PackagePlugin

/// Embeds every OpenAPI document of the package (each target folder that holds an
/// `openapi.yaml`: the core's contracts and every feature's `API/<Contract>`) in the target
/// that uses this plugin, as `EmbeddedContracts.files` (target name, document), so that
/// `deck contract check` reads the very documents the clients were generated from, and a new
/// contract is included without a line to add. Plugins/embed-list.sh writes the Swift file.
@main
struct EmbedContracts: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
    let documents = context.package.targets.compactMap { target -> (String, URL)? in
      let file = target.directoryURL.appending(path: "openapi.yaml")
      guard FileManager.default.fileExists(atPath: file.path(percentEncoded: false)) else { return nil }
      return (target.name, file)
    }.sorted { $0.0 < $1.0 }
    let script = context.package.directoryURL.appending(path: "Plugins/embed-list.sh")
    let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedContracts.swift")
    return [
      .buildCommand(
        displayName: "Embedding \(documents.count) OpenAPI documents",
        executable: URL(filePath: "/bin/sh"),
        arguments: [
          script.path(percentEncoded: false), output.path(percentEncoded: false), "EmbeddedContracts",
          "Every contract of the package: its target name and its OpenAPI document.",
        ] + documents.flatMap { [$0.0, $0.1.path(percentEncoded: false)] },
        inputFiles: [script] + documents.map(\.1),
        outputFiles: [output])
    ]
  }
}
