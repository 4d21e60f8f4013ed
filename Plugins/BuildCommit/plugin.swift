import Foundation
import PackagePlugin

/// Writes `BuildCommit.swift` into the target that uses this plugin: `enum BuildCommit` with the
/// git commit the program is built from, which `--version` prints. A prebuild command, so it
/// runs at every build and a binary never carries the commit of an earlier build; the file is
/// rewritten only when its text changes, so an unchanged commit recompiles nothing.
/// Plugins/build-commit.sh reads the commit (with /bin/sh and git, so no tool is built for it).
@main
struct BuildCommit: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
    let script = context.package.directoryURL.appending(path: "Plugins/build-commit.sh")
    let folder = context.pluginWorkDirectoryURL.appending(path: "Generated")
    return [
      .prebuildCommand(
        displayName: "Reading the git commit \(target.name) is built from",
        executable: URL(filePath: "/bin/sh"),
        arguments: [
          script.path(percentEncoded: false), context.package.directoryURL.path(percentEncoded: false),
          folder.appending(path: "BuildCommit.swift").path(percentEncoded: false),
        ],
        outputFilesDirectory: folder)
    ]
  }
}
