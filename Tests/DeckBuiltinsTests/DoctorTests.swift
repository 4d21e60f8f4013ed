import DeckAuth
import DeckConfig
import DeckCore
import DeckSupport
import Foundation
import SandboxAdminAPI
import Synchronization
import TestFixtures
import Testing

@testable import DeckBuiltins

/// The pure parts of `deck doctor`: each check's verdict from the facts it was given, the
/// report's rendering, JSON shape and exit code.
@Suite("deck doctor: checks and report")
struct DoctorTests {
  init() { FeatureServices.register() }

  let now = Date(timeIntervalSince1970: 1_800_000_000)
  let local = ResolvedEnvironment(
    definition: BuiltinEnvironments.named("local")!, source: .variable, overriddenServices: [])

  // MARK: Report

  @Test func warningsAloneExitZeroAndAnyErrorExitsOne() {
    var report = DoctorReport(checks: [.ok("a", "fine"), .warning("b", "meh", fix: "do b")])
    #expect(report.exitCode == 0)
    #expect(report.summary == "1 warning (of 2 checks).")
    report.checks.append(.error("c", "broken", fix: "do c"))
    #expect(report.exitCode == 1)
    #expect(report.summary == "1 check failed, 1 warning (of 3 checks).")
    #expect(DoctorReport(checks: [.ok("a", "fine")]).summary == "No problems found (1 check).")
  }

  @Test func renderAlignsNamesAndPutsTheFixUnderAnythingShortOfOk() {
    let report = DoctorReport(checks: [
      .ok("clock", "within 1 s"), .error("token file", "mode 644\u{1B}[2J", fix: "chmod 600 /t"),
      .warning("plugins", "one clash", fix: "mv a b"),
    ])
    #expect(
      report.render() == """
        ✓ clock       within 1 s
        ✗ token file  mode 644[2J
                      fix: chmod 600 /t
        ! plugins     one clash
                      fix: mv a b

        """)
    let styled = report.render { symbol, status in "<\(status.rawValue)>\(symbol)" }
    #expect(styled.hasPrefix("<ok>✓ clock"))
  }

  @Test func jsonHasNameStatusDetailAndFixForEveryCheck() throws {
    let data = try JSONEncoder().encode([DoctorCheck.ok("clock", "fine"), .error("x", "bad", fix: "fix x")])
    let objects = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    #expect(objects.map { Set($0.keys) } == Array(repeating: ["name", "status", "detail", "fix"], count: 2))
    #expect(objects[0]["fix"] is NSNull)
    #expect(objects[1]["status"] as? String == "error")
    #expect(objects[1]["fix"] as? String == "fix x")
  }

  // MARK: Files

  @Test func tokenFileVerdicts() {
    let facts = FileFacts(owner: 1000, mode: 0o600, isDirectory: false)
    #expect(FileChecks.tokenFile(path: "/t", facts: nil, user: 1000, readProblem: nil).status == .ok)
    #expect(FileChecks.tokenFile(path: "/t", facts: facts, user: 1000, readProblem: nil).status == .ok)
    let stranger = FileChecks.tokenFile(path: "/t", facts: facts, user: 1001, readProblem: nil)
    #expect(stranger.status == .error)
    #expect(stranger.fix == "chown 1001 /t  (or move it away)")
    let readable = FileChecks.tokenFile(
      path: "/t", facts: FileFacts(owner: 1000, mode: 0o644, isDirectory: false), user: 1000,
      readProblem: DeckError.configuration("Refusing to use the token file /t: its mode is 644", hint: "chmod 600 /t"))
    #expect(readable.status == .error)
    #expect(readable.detail.contains("644"))
    #expect(readable.fix == "chmod 600 /t")
  }

  @Test func configFileVerdicts() {
    let mine = FileFacts(owner: 7, mode: 0o600, isDirectory: false)
    #expect(FileChecks.configFile(path: "/c", facts: nil, user: 7, parsed: .success(ConfigFile())).status == .ok)
    let writable = FileChecks.configFile(
      path: "/c", facts: FileFacts(owner: 7, mode: 0o666, isDirectory: false), user: 7, parsed: .success(ConfigFile()))
    #expect(writable.status == .error)
    #expect(writable.fix == "chmod 600 /c")
    let broken = FileChecks.configFile(
      path: "/c", facts: mine, user: 7, parsed: .failure(DeckError.configuration("/c:3: bad", hint: "Fix it")))
    #expect(broken.status == .error)
    #expect(broken.detail == "/c:3: bad")
    var withToken = ConfigFile()
    withToken.setEntry("local", .init(sandboxAdminToken: "secret"))
    let readable = FileChecks.configFile(
      path: "/c", facts: FileFacts(owner: 7, mode: 0o644, isDirectory: false), user: 7, parsed: .success(withToken))
    #expect(readable.status == .warning)
    #expect(!readable.detail.contains("secret"))
    #expect(
      FileChecks.configFile(
        path: "/c", facts: FileFacts(owner: 7, mode: 0o644, isDirectory: false), user: 7,
        parsed: .success(ConfigFile())
      ).status == .ok)
  }

  // MARK: Account

  @Test func accountVerdicts() {
    let live = StoredSession(
      email: "a@b.test", accessToken: "t", refreshToken: "r", expiresAt: now.addingTimeInterval(3000))
    let accepted = AccountCheck.evaluate(
      environment: "local", token: .stored(live), verdict: .accepted(email: "a@b.test"), now: now)
    #expect(accepted.status == .ok)
    #expect(accepted.detail == "a@b.test, token expires in 50 min, refreshable; the server accepts it (user a@b.test)")

    let refused = AccountCheck.evaluate(
      environment: "local", token: .stored(live),
      verdict: .refused(DeckError(.unauthorized(status: 403), "Session not found")), now: now)
    #expect(refused.status == .error)
    #expect(refused.fix == "deck auth login --email a@b.test --password-stdin")

    // Issue 31: no answer in time. With a sandbox's delay, the delay is named and is the fix.
    let late = DeckError(.unavailable(status: nil), "no answer within 2 s")
    let unasked = AccountCheck.evaluate(
      environment: "local", token: .stored(live), verdict: .unreachable(late), now: now)
    #expect(unasked.status == .warning)
    #expect(unasked.fix == "see the auth service's line above")
    let delayed = AccountCheck.evaluate(
      environment: "local", token: .stored(live), verdict: .unreachable(late), sandboxDelay: 2000, now: now)
    #expect(delayed.status == .warning)
    #expect(
      delayed.detail
        == "a@b.test, token expires in 50 min, refreshable; not checked with the server: no answer within 2 s (the sandbox delays every API response by 2000 ms)"
    )
    #expect(delayed.fix == "deck sandbox delay 0")

    var expired = live
    expired.expiresAt = now.addingTimeInterval(-120)
    let refreshable = AccountCheck.evaluate(environment: "local", token: .stored(expired), verdict: .notAsked, now: now)
    #expect(refreshable.status == .ok)
    #expect(refreshable.detail.contains("not tried here"))
    expired.refreshToken = nil
    #expect(
      AccountCheck.evaluate(environment: "local", token: .stored(expired), verdict: .notAsked, now: now).status
        == .error)
    #expect(AccountCheck.evaluate(environment: "local", token: .none, verdict: .notAsked).status == .warning)
  }

  // MARK: Completion, plugins, sandbox

  @Test func completionLocationsFollowEachShell() {
    let environment = ["HOME": "/h", "XDG_DATA_HOME": "/h/data", "XDG_CONFIG_HOME": "/h/config"]
    let bash = CompletionCheck.locations(shell: "bash", environment: environment, binary: "/opt/deck/bin/deck")
    #expect(
      Array(bash.prefix(4)) == [
        "/h/data/bash-completion/completions/deck", "/opt/deck/share/bash-completion/completions/deck",
        "/usr/local/share/bash-completion/completions/deck", "/usr/share/bash-completion/completions/deck",
      ])
    let zsh = CompletionCheck.locations(shell: "zsh", environment: environment, binary: "/opt/deck/bin/deck")
    #expect(zsh.contains("/opt/deck/share/zsh/site-functions/_deck"))
    let fish = CompletionCheck.locations(shell: "fish", environment: environment, binary: nil)
    #expect(fish.first == "/h/config/fish/completions/deck.fish")
  }

  @Test func completionVerdicts() {
    func check(_ installed: (path: String, contents: String)?, shell: String? = "/bin/bash") -> DoctorCheck {
      CompletionCheck.evaluate(
        shellPath: shell, searched: ["/a/deck"], installed: installed, expected: "script", environment: [:])
    }
    #expect(check((path: "/a/deck", contents: "script")).status == .ok)
    let stale = check((path: "/a/deck", contents: "old"))
    #expect(stale.status == .warning)
    #expect(stale.fix == "deck completion bash > /a/deck")
    let missing = check(nil)
    #expect(missing.status == .warning)
    #expect(missing.fix?.contains("deck completion bash >") == true)
    #expect(check(nil, shell: "/bin/dash").status == .ok)
    #expect(check(nil, shell: nil).status == .ok)
  }

  /// The completion check against a fake filesystem (path: contents), bash as the shell.
  func bashCompletion(_ files: [String: String], environment: [String: String] = ["HOME": "/h"]) -> DoctorCheck {
    var environment = environment
    environment["SHELL"] = "/bin/bash"
    return CompletionCheck.check(
      shellPath: "/bin/bash", environment: environment, binaries: ["/opt/deck/bin/deck"], expected: "script",
      read: { files[$0] })
  }

  @Test func withoutBashCompletionAnInstalledScriptIsNotLoadedAndTheFixSourcesIt() {
    let user = "/h/.local/share/bash-completion/completions/deck"
    // The machine: the script where bash-completion looks, but no bash-completion.
    let unloaded = bashCompletion([user: "script"])
    #expect(unloaded.status == .warning)
    #expect(unloaded.detail == "bash-completion is not installed, so bash will not load \(user)")
    #expect(unloaded.fix == "echo 'source \(user)' >> ~/.bashrc")
    // A stale one is rewritten first.
    #expect(bashCompletion([user: "old"]).fix == "deck completion bash > \(user) && echo 'source \(user)' >> ~/.bashrc")
    // Nothing at all: the fix writes the script and sources it.
    let none = bashCompletion([:])
    #expect(none.status == .warning)
    #expect(none.detail.contains("bash-completion is not installed"))
    #expect(
      none.fix
        == "mkdir -p ~/.local/share/bash-completion/completions && deck completion bash > ~/.local/share/bash-completion/completions/deck && echo 'source ~/.local/share/bash-completion/completions/deck' >> ~/.bashrc"
    )
  }

  @Test func withBashCompletionTheScriptInItsDirectoriesIsEnough() {
    let user = "/h/.local/share/bash-completion/completions/deck"
    for loader in [
      "/usr/share/bash-completion/bash_completion", "/etc/bash_completion",
      "/opt/deck/share/bash-completion/bash_completion", "/opt/homebrew/etc/profile.d/bash_completion.sh",
    ] {
      #expect(bashCompletion([user: "script", loader: ""]).status == .ok, "\(loader)")
      #expect(bashCompletion([loader: ""]).fix?.hasSuffix("> ~/.local/share/bash-completion/completions/deck") == true)
    }
    // bash-completion installed under a data directory of XDG_DATA_DIRS.
    let environment = ["HOME": "/h", "XDG_DATA_DIRS": "/d"]
    #expect(
      bashCompletion([user: "script", "/d/bash-completion/bash_completion": ""], environment: environment).status == .ok
    )
  }

  @Test func aBashrcThatLoadsDecksScriptIsInstalledWithoutBashCompletion() {
    let script = "/h/deck.bash"
    #expect(bashCompletion(["/h/.bashrc": "eval \"$(deck completion bash)\"\n"]).status == .ok)
    #expect(bashCompletion(["/h/.bashrc": "source <(deck completion bash)\n"]).status == .ok)
    #expect(bashCompletion(["/h/.bashrc": "# eval \"$(deck completion bash)\"\n"]).status == .warning)
    let sourced = ["/h/.bashrc": "alias ll='ls -l'\n[ -f ~/deck.bash ] && . ~/deck.bash\n"]
    let stale = bashCompletion(sourced.merging([script: "script complete -o filenames -F _deck deck"]) { a, _ in a })
    #expect(stale.status == .warning, "not this deck's script")
    #expect(stale.fix == "deck completion bash > \(script)")
    // Deck's script as the shell loads it; a file of a searched directory counts even if unrecognised.
    let user = "/h/.local/share/bash-completion/completions/deck"
    let current = bashCompletion([
      "/h/.bashrc": "source \"$HOME/.local/share/bash-completion/completions/deck\"", user: "script",
    ])
    #expect(current.status == .ok)
    #expect(current.detail == "\(user) (sourced by /h/.bashrc) matches this deck's bash script")
    // A sourced file that is not deck's is not taken for it.
    #expect(bashCompletion(["/h/.bashrc": "source /h/other", "/h/other": "x"]).status == .warning)
  }

  @Test func pluginClashes() {
    #expect(PluginCheck.evaluate(executables: [], commands: ["env"], replBuiltins: ["edit"]).status == .ok)
    let fine = PluginCheck.evaluate(executables: [("hello", "/p/deck-hello")], commands: ["env"], replBuiltins: [])
    #expect(fine == .ok("plugins", "hello (/p/deck-hello)"))
    let clash = PluginCheck.evaluate(
      executables: [("env", "/p/deck-env"), ("hello", "/p/deck-hello"), ("hello", "/q/deck-hello")],
      commands: ["env"], replBuiltins: [])
    #expect(clash.status == .warning)
    #expect(clash.detail.contains("/p/deck-env never runs: the built-in `deck env` wins"))
    #expect(clash.detail.contains("/q/deck-hello is hidden by /p/deck-hello"))
    #expect(clash.fix == "mv /p/deck-env /p/deck-env-plugin")
    let repl = PluginCheck.evaluate(executables: [("edit", "/p/deck-edit")], commands: [], replBuiltins: ["edit"])
    #expect(repl.detail.contains("in the REPL, `edit` is a built-in"))
  }

  @Test func sandboxDatabaseVerdicts() {
    let known = ["v1", "v2", "v3"]
    func check(_ applied: [String]) -> DoctorCheck {
      SandboxCheck.evaluate(
        path: "/d/sandbox.sqlite", directoryProblem: nil,
        info: .success(
          SandboxDatabaseInfo(size: 3 * 1024 * 1024 / 2, appliedMigrations: applied, knownMigrations: known)))
    }
    #expect(check(known) == .ok("sandbox", "/d/sandbox.sqlite: 1.5 MiB, schema version 3 of 3 (latest v3)"))
    #expect(check(["v1"]).detail.hasSuffix("deck brings it up to date on next use"))
    #expect(check(known + ["v9"]).status == .warning)
    let none = SandboxCheck.evaluate(path: "/d/sandbox.sqlite", directoryProblem: nil, info: .success(nil))
    #expect(none.status == .ok)
    #expect(none.detail.contains("not created yet"))
  }

  /// Work that ends as soon as it is cancelled (an HTTP request answers "Interrupted.") must
  /// not answer for the bound: the caller gets nil, so doctor says "no answer within 2 s".
  /// The cancellation handler runs inside `cancel()`, and here lets the work finish and then
  /// holds `cancel()` up, which is what a preempted timer thread does.
  @Test func workCancelledAtTheBoundDoesNotAnswerInItsPlace() async {
    let gate = ContinuationGate()
    let value = await Bounded.run(within: .milliseconds(50)) { () -> Int in
      await withTaskCancellationHandler {
        await withCheckedContinuation { gate.hold($0) }
      } onCancel: {
        gate.resume(-1)
        usleep(300_000)
      }
    }
    #expect(value == nil)
  }

  @Test func boundedWorkThatOverrunsIsNotWaitedFor() async {
    let finished = Finished()
    let value = await Bounded.run(within: .milliseconds(200)) { () -> Int in
      // Ignores cancellation for ten minutes, like a connect to a peer that never answers:
      // that it has not finished when the answer comes shows it was not waited for (no wall
      // clock bound, which a loaded machine would break).
      await withCheckedContinuation { continuation in
        DispatchQueue.global().asyncAfter(deadline: .now() + 600) {
          finished.flag.store(true, ordering: .relaxed)
          continuation.resume(returning: 1)
        }
      }
    }
    #expect(value == nil)
    let workFinished = finished.flag.load(ordering: .relaxed)
    #expect(!workFinished, "returned without waiting for the work")
    #expect(await Bounded.run(within: .seconds(5)) { 42 } == 42)
  }

  final class Finished: Sendable {
    let flag = Atomic<Bool>(false)
  }

}

/// A continuation resumed once, by whichever of `hold` and `resume` comes second.
private final class ContinuationGate: Sendable {
  private let state = Mutex<(continuation: CheckedContinuation<Int, Never>?, value: Int?)>((nil, nil))

  func hold(_ continuation: CheckedContinuation<Int, Never>) {
    let ready: Int? = state.withLock { state in
      guard let value = state.value else {
        state.continuation = continuation
        return nil
      }
      return value
    }
    if let ready { continuation.resume(returning: ready) }
  }

  func resume(_ value: Int) {
    let waiting = state.withLock { state -> CheckedContinuation<Int, Never>? in
      state.value = value
      defer { state.continuation = nil }
      return state.continuation
    }
    waiting?.resume(returning: value)
  }
}
