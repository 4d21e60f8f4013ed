import Testing

@testable import DeckBuiltins

/// doctor's completion check with bash-completion installed: it passes only a script that
/// bash-completion's loader will find (a fake filesystem of path: contents, bash as the shell).
@Suite("doctor: where bash-completion looks")
struct BashCompletionSearchTests {
  func bashCompletion(_ files: [String: String], environment: [String: String] = ["HOME": "/h"]) -> DoctorCheck {
    var environment = environment
    environment["SHELL"] = "/bin/bash"
    return CompletionCheck.check(
      shellPath: "/bin/bash", environment: environment, binaries: ["/opt/deck/bin/deck"], expected: "script",
      read: { files[$0] })
  }

  /// Issue 45: Debian 12's bash-completion (2.11) searches only its user directory and the data
  /// directories, so scripts/install's `PREFIX/share/bash-completion/completions/deck` is not
  /// loaded unless PREFIX/share is one of them; 2.12 also searches beside each `…/bin` on PATH.
  @Test func withBashCompletionAScriptOutsideItsDirectoriesIsNotLoaded() {
    let debian = ["/usr/share/bash-completion/bash_completion": "BASH_COMPLETION_VERSINFO=(2 11)\n"]
    let installed = "/opt/deck/share/bash-completion/completions/deck"
    let stray = bashCompletion(debian.merging([installed: "script"]) { a, _ in a })
    #expect(stray.status == .warning)
    #expect(
      stray.detail
        == "bash-completion 2.11 does not look in /opt/deck/share/bash-completion/completions (only in its user "
        + "directory and the data directories of XDG_DATA_DIRS), so bash will not load \(installed)")
    let user = "~/.local/share/bash-completion/completions"
    #expect(stray.fix == "mkdir -p \(user) && ln -sf \(installed) \(user)/deck")
    let stale = bashCompletion(debian.merging([installed: "old"]) { a, _ in a })
    #expect(stale.fix == "deck completion bash > \(installed) && mkdir -p \(user) && ln -sf \(installed) \(user)/deck")
    // After the fix (the link), or with PREFIX/share among the data directories, bash loads it.
    let linked = debian.merging([installed: "script", "/h/.local/share/bash-completion/completions/deck": "script"]) {
      a, _ in a
    }
    #expect(bashCompletion(linked).status == .ok)
    let listed = ["HOME": "/h", "XDG_DATA_DIRS": "/opt/deck/share:/usr/share"]
    #expect(bashCompletion(debian.merging([installed: "script"]) { a, _ in a }, environment: listed).status == .ok)
    // 2.12 finds it beside /opt/deck/bin.
    let newer = ["/usr/share/bash-completion/bash_completion": "BASH_COMPLETION_VERSINFO=(2 12 0)\n"]
    #expect(bashCompletion(newer.merging([installed: "script"]) { a, _ in a }).status == .ok)
    // /etc/bash_completion.d is sourced whole when bash-completion starts.
    #expect(bashCompletion(debian.merging(["/etc/bash_completion.d/deck": "script"]) { a, _ in a }).status == .ok)
    // BASH_COMPLETION_USER_DIR replaces XDG_DATA_HOME's directory; the fix links into it.
    let custom = ["HOME": "/h", "BASH_COMPLETION_USER_DIR": "/u"]
    let home = "/h/.local/share/bash-completion/completions/deck"
    let elsewhere = bashCompletion(debian.merging([home: "script"]) { a, _ in a }, environment: custom)
    #expect(elsewhere.status == .warning)
    #expect(elsewhere.fix == "mkdir -p /u/completions && ln -sf \(home) /u/completions/deck")
    #expect(
      bashCompletion(debian.merging(["/u/completions/deck": "script"]) { a, _ in a }, environment: custom).status == .ok
    )
  }

  @Test func bashCompletionSearchesAsItsLoaderDoes() {
    let environment = ["HOME": "/h", "PATH": "/opt/deck/bin:/usr/bin:/sbin", "XDG_DATA_DIRS": "/d:/usr/share"]
    let debian = BashCompletion(script: "/usr/share/bash-completion/bash_completion", version: [2, 11])
    #expect(
      debian.locations(environment: environment, binaries: ["/x/bin/deck"]) == [
        "/etc/bash_completion.d/deck", "/h/.local/share/bash-completion/completions/deck",
        "/d/bash-completion/completions/deck", "/usr/share/bash-completion/completions/deck",
      ])
    let newer = BashCompletion(script: "/usr/share/bash-completion/bash_completion", version: [2, 12, 0])
    #expect(
      newer.locations(environment: environment, binaries: ["/x/bin/deck"])
        == [
          "/etc/bash_completion.d/deck", "/h/.local/share/bash-completion/completions/deck",
          "/usr/share/bash-completion/completions/deck", "/x/share/bash-completion/completions/deck",
          "/opt/deck/share/bash-completion/completions/deck", "/usr/share/bash-completion/completions/deck",
          "/d/bash-completion/completions/deck",
        ].reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } })
    #expect(BashCompletion.version(in: "# x\nBASH_COMPLETION_VERSINFO=(2 11)\n") == [2, 11])
    #expect(BashCompletion.mainScript(of: "/etc/bash_completion") == "/usr/share/bash-completion/bash_completion")
    #expect(
      BashCompletion.mainScript(of: "/opt/homebrew/etc/profile.d/bash_completion.sh")
        == "/opt/homebrew/share/bash-completion/bash_completion")
  }
}
