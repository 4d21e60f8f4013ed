# build-commit.sh PACKAGE OUTPUT: writes OUTPUT, a Swift file declaring `enum BuildCommit` with
# `description`, what `--version` says of the source PACKAGE's program is built from:
#   "commit 1a2b3c4d5e6f"             PACKAGE is a git checkout of that commit, unchanged
#   "commit 1a2b3c4d5e6f, modified"   its tracked files differ from that commit, or it has
#                                     files git does not know (they may be sources)
#   "unknown commit"                  PACKAGE is not the top of a git checkout (a tarball, or a
#                                     folder inside another project's repository), or git is
#                                     missing or refuses the repository (another owner's)
# Run by the BuildCommit plugin before every build. OUTPUT is rewritten only when its text
# changes, so that an unchanged commit recompiles nothing; a failed run leaves no half file.
set -eu
package=$1 output=$2
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_COMMON_DIR
description="unknown commit"
if top=$(git -C "$package" rev-parse --show-toplevel 2>/dev/null) &&
  [ "$(cd "$top" && pwd -P)" = "$(cd "$package" && pwd -P)" ] &&
  commit=$(git -C "$package" rev-parse --verify --short=12 'HEAD^{commit}' 2>/dev/null) &&
  changes=$(git -C "$package" --no-optional-locks status --porcelain 2>/dev/null); then
  if [ -n "$changes" ]; then description="commit $commit, modified"; else description="commit $commit"; fi
fi
mkdir -p "$(dirname "$output")"
cat >"$output.tmp" <<SWIFT
// Generated at build time by Plugins/build-commit.sh. Do not edit.

enum BuildCommit {
  /// The git commit this program was built from, "commit <12 hex digits>" with ", modified"
  /// when the sources differed from it, or "unknown commit" when the build was not of a git
  /// checkout.
  static let description = "$description"
}
SWIFT
if cmp -s "$output.tmp" "$output"; then rm -f "$output.tmp"; else mv "$output.tmp" "$output"; fi
