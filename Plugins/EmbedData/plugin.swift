import Foundation
import PackagePlugin

/// Embeds data files in the target that uses this plugin, at build time, so that the program
/// needs no file beside it and no Swift copy of the data is committed.
///
/// Every `*.csv` file in the `Data` folder beside the target's folder (for
/// `Sources/Features/Prefs/Server`, `Sources/Features/Prefs/Data`) becomes a Swift file in the
/// plugin's work directory that declares the file's text, as is, as a string:
/// `zip-centroids.csv` gives `enum ZipCentroidsData { static let csv: String }`.
///
/// No tool is built for it: the command is `/bin/sh`, which writes the file between the
/// delimiters of a raw multi-line string literal with one `#` more than the longest run of `#`
/// in the data, so no text can end the literal early or start an escape.
@main
struct EmbedData: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
    let folder = target.directoryURL.deletingLastPathComponent().appending(path: "Data")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))) ?? []
    return names.filter { $0.hasSuffix(".csv") && !$0.hasPrefix(".") }.sorted().map { name in
      let input = folder.appending(path: name)
      let type = Self.typeName(name)
      let output = context.pluginWorkDirectoryURL.appending(path: "\(type).swift")
      return .buildCommand(
        displayName: "Embedding \(name) as \(type).csv",
        executable: URL(filePath: "/bin/sh"),
        arguments: [
          "-c", Self.script, "embed-data", input.path(percentEncoded: false), output.path(percentEncoded: false), type,
        ],
        inputFiles: [input],
        outputFiles: [output])
    }
  }

  /// `zip-centroids.csv` → `ZipCentroidsData`: the words of the name without its extension, each
  /// capitalized, then `Data`; a name that starts with a digit gets a leading `_`.
  static func typeName(_ file: String) -> String {
    let base = file.split(separator: ".").dropLast().joined(separator: ".")
    let words = base.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
    let name = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined() + "Data"
    return name.first?.isNumber == true ? "_" + name : name
  }

  /// `sh -c script embed-data INPUT OUTPUT TYPE`. A multi-line literal leaves out the line break
  /// after its opening delimiter and the one before its closing delimiter, so its text is the
  /// file's (Swift reads a CR LF line break as `\n`, the one change). Written to a temporary file
  /// first: a failed run leaves no half-written source.
  static let script = #"""
    set -eu
    input=$1 output=$2 type=$3
    longest=$(LC_ALL=C tr -cs '#' '\n' <"$input" | awk '{ if (length($0) > n) n = length($0) } END { print n + 0 }')
    hashes=$(printf "%$((longest + 1))s" '' | tr ' ' '#')
    {
      printf '// Generated at build time by the EmbedData plugin from %s. Do not edit.\n\n' "${input##*/}"
      printf 'enum %s {\n  static let csv = %s"""\n' "$type" "$hashes"
      cat "$input"
      printf '\n"""%s\n}\n' "$hashes"
    } >"$output.tmp"
    mv "$output.tmp" "$output"
    """#
}
