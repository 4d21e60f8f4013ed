import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-completions`
///
/// Builds `deck` and writes its bash, zsh and fish completion scripts to `completions/`.
/// The scripts come from swift-argument-parser's generator, so they always match the command
/// tree; a test fails when the committed ones are stale.
@main
struct GenerateCompletions: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    let build = try packageManager.build(.product("deck"), parameters: .init(configuration: .debug))
    guard build.succeeded else {
      Diagnostics.error("Building deck failed:\n\(build.logText)")
      return
    }
    guard
      let deck = build.builtArtifacts.first(where: { $0.kind == .executable && $0.url.lastPathComponent == "deck" })
    else {
      Diagnostics.error("The build produced no deck executable.")
      return
    }
    let directory = context.package.directoryURL.appendingPathComponent("completions")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for (shell, file) in [("bash", "deck.bash"), ("zsh", "_deck"), ("fish", "deck.fish")] {
      let process = Process()
      process.executableURL = deck.url
      process.arguments = ["completion", shell]
      let output = Pipe()
      process.standardOutput = output
      try process.run()
      let script = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      guard process.terminationStatus == 0 else {
        Diagnostics.error("deck completion \(shell) exited with \(process.terminationStatus).")
        return
      }
      // Write atomically: a reader never sees half a script.
      try script.write(to: directory.appendingPathComponent(file), options: .atomic)
      print("wrote completions/\(file)")
    }
  }
}
