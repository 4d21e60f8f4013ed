# embed-list.sh OUTPUT ENUM DOC NAME FILE [NAME FILE …]: writes OUTPUT, a Swift file declaring
# `enum ENUM { static let files: [(name: String, text: String)] }` with each FILE's text, as is,
# under its NAME. Shared by the EmbedContracts and EmbedScenarios plugins (run with /bin/sh, so
# no tool is built for it).
#
# Each text goes between the delimiters of a raw multi-line string literal with one `#` more
# than the longest run of `#` in it, so no text can end the literal early or start an escape.
# Written to a temporary file first: a failed run leaves no half-written source.
set -eu
output=$1 type=$2 doc=$3
shift 3
{
  printf '// Generated at build time by Plugins/embed-list.sh. Do not edit.\n\n'
  printf 'enum %s {\n  /// %s\n' "$type" "$doc"
  printf '  static let files: [(name: String, text: String)] = [\n'
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
