import Foundation
import PackagePlugin

/// Embeds every OpenAPI document of the package (each target folder that holds an
/// `openapi.yaml`: the core's contracts and every feature's `API/<Contract>`) in the target
/// that uses this plugin, as `EmbeddedContracts.documents`, so that `deck contract check` reads
/// the very documents the clients were generated from, and a new contract is included without
/// a line to add.
///
/// No tool is built for it: the command is `/bin/sh`, which writes each document between the
/// delimiters of a raw multi-line string literal with one `#` more than the longest run of `#`
/// in it (as EmbedData does), so no text can end the literal early or start an escape.
@main
struct EmbedContracts: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
    let documents = context.package.targets.compactMap { target -> (String, URL)? in
      let file = target.directoryURL.appending(path: "openapi.yaml")
      guard FileManager.default.fileExists(atPath: file.path(percentEncoded: false)) else { return nil }
      return (target.name, file)
    }.sorted { $0.0 < $1.0 }
    let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedContracts.swift")
    return [
      .buildCommand(
        displayName: "Embedding \(documents.count) OpenAPI documents",
        executable: URL(filePath: "/bin/sh"),
        arguments: ["-c", Self.script, "embed-contracts", output.path(percentEncoded: false)]
          + documents.flatMap { [$0.0, $0.1.path(percentEncoded: false)] },
        inputFiles: documents.map(\.1),
        outputFiles: [output])
    ]
  }

  /// `sh -c script embed-contracts OUTPUT NAME FILE [NAME FILE …]`. Written to a temporary file
  /// first: a failed run leaves no half-written source.
  static let script = #"""
    set -eu
    output=$1
    shift
    {
      printf '// Generated at build time by the EmbedContracts plugin. Do not edit.\n\n'
      printf 'enum EmbeddedContracts {\n  /// Every contract of the package: its target name and its OpenAPI document.\n'
      printf '  static let documents: [(name: String, yaml: String)] = [\n'
      while [ $# -ge 2 ]; do
        name=$1 input=$2
        shift 2
        longest=$(LC_ALL=C tr -cs '#' '\n' <"$input" | awk '{ if (length($0) > n) n = length($0) } END { print n + 0 }')
        hashes=$(printf "%$((longest + 1))s" '' | tr ' ' '#')
        printf '    ("%s", %s"""\n' "$name" "$hashes"
        cat "$input"
        printf '\n"""%s),\n' "$hashes"
      done
      printf '  ]\n}\n'
    } >"$output.tmp"
    mv "$output.tmp" "$output"
    """#
}
