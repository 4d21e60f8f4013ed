import DeckApp
import DeckSupport
import Foundation
import Testing

@testable import DeckQA

/// Issue 44, findings 2, 3, 4 and 13: what a scenario's step may do. Its own `--env`, a nested
/// `qa run`, the REPL and a script file are refused; files are written only under the run's
/// directory or one `--allow-writes-outside` names; a step that reads a file from elsewhere
/// keeps its output out of the report; jq does not transform a secret.
@Suite struct StepPolicyTests {
  static let run = "/tmp/deck-qa-policy-test/run"
  /// What deck's commands declare about the files they name.
  static let files = Registry.modules.fileArguments
  static let policy = StepPolicy(writable: [run, "/srv/reports"], currentDirectory: "/home/op/project", files: files)

  static func refusal(_ line: String, stdin: String? = nil, known: Bool = true) -> String? {
    guard case .words(let words) = ShellWords.split(line) else { return "incomplete" }
    return policy.refusal(words, stdin: stdin, known: known)
  }

  @Test(arguments: [
    "brokerage search keller --env production", "brokerage search keller --env=production",
    "deck brokerage search keller -e production", "brokerage search keller -env production",
  ])
  func aStepNamesNoEnvironment(_ line: String) throws {
    let problem = try #require(Self.refusal(line))
    #expect(problem.contains("may not name -"), "\(problem)")
    #expect(problem.contains("qa run --env"))
  }

  @Test func noRunInsideARunNoREPLAndScriptsOnlyFromStdin() throws {
    #expect(try #require(Self.refusal("qa run other.yaml --report tap")).contains("deck qa run"))
    #expect(try #require(Self.refusal("deck qa run")).contains("deck qa run"))
    #expect(Self.refusal("qa list --json") == nil)
    #expect(try #require(Self.refusal("repl")).contains("REPL"))
    #expect(
      try #require(Self.refusal("run --keep-going /home/op/.ssh/id_ed25519")).contains("/home/op/.ssh/id_ed25519"))
    #expect(Self.refusal("run --keep-going -", stdin: "brokerage search keller\nbrokerage search compass\n") == nil)
    #expect(Self.refusal("run", stdin: "brokerage search keller\n") == nil)
    // Every line of the script is a step's line, continuation lines included.
    let nested = try #require(Self.refusal("run -", stdin: "brokerage search keller\nprefs get --env 'prod\nuction'\n"))
    #expect(nested.hasPrefix("stdin line 3: a step may not name --env"), "\(nested)")
    #expect(try #require(Self.refusal("run -", stdin: "qa run x.yaml\n")).hasPrefix("stdin line 1: a step may not run"))
    #expect(try #require(Self.refusal("run -", stdin: "let p = prefs get\n")).contains("no let"))
    // A script's own $NAME could name an option or a path the scenario never wrote.
    let variable = try #require(Self.refusal("run -", stdin: "prefs photo get --output \"$p\"\n"))
    #expect(variable.contains("no $NAME"), "\(variable)")
    #expect(Self.refusal("run -", stdin: "prefs photo get --output \"$p\"\n", known: false) == nil)
    #expect(Self.refusal("run -", stdin: "brokerage search '$literal'\n") == nil)
  }

  @Test(arguments: [
    "prefs photo get --output /home/op/.bashrc", "prefs photo get -o /home/op/.bashrc",
    "prefs photo get -o/home/op/.bashrc", "prefs photo get --output=/home/op/.bashrc",
    "prefs photo get --output .bashrc", "prefs photo get --output \(run)/../../../home/op/.bashrc",
    "contract check --out /etc/cron.d/x", "contract check --baseline ~/.profile --write-baseline",
    "contract fixtures --fixtures /home/op/.config/autostart/x.desktop", "kiosk approve --qr-png /home/op/x.png",
    "kiosk run --sessions 1 --qr-png=/home/op/x.png", "sandbox serve --database sqlite:/home/op/.bashrc",
    "sandbox serve --database /home/op/x.db", "qa export /home/op/.config/autostart",
    "deck qa export --json ../../home/op/.local", "sandbox serve --db /home/op/x.db",
  ])
  func aFileIsWrittenOnlyUnderTheRunOrAnAllowedDirectory(_ line: String) throws {
    let problem = try #require(Self.refusal(line), "\(line)")
    #expect(problem.contains("outside the run's working directory"), "\(problem)")
    #expect(problem.contains("--allow-writes-outside"))
    #expect(try #require(Self.refusal("run -", stdin: "# a comment\n\(line)\n")).hasPrefix("stdin line 2: "))
  }

  @Test(arguments: [
    "prefs photo get --output \(run)/files/me.jpg", "prefs photo get -o \(run)", "prefs photo get --output -",
    "contract check --out /srv/reports/contract.json", "contract check --out=/srv/reports/sub/x.xml",
    "sandbox serve --database postgres://qa@db/deck", "brokerage search --output /anything",
    "prefs photo get --output \(run)/x/../y.jpg", "qa export \(run)/scenarios", "prefs photo get -o\(run)/me.jpg",
  ])
  func writesUnderTheRunOrAnAllowedDirectoryAreFine(_ line: String) {
    #expect(Self.refusal(line) == nil, "\(line)")
  }

  /// At load time a path that holds a variable is not known yet; it is checked when the step
  /// runs, with the variable's value.
  @Test func aPathWithAVariableIsCheckedWhenTheStepRuns() {
    #expect(Self.refusal("prefs photo get --output ${WORKDIR}/me.jpg", known: false) == nil)
    #expect(Self.refusal("prefs photo get --output ${target}", known: false) == nil)
    #expect(Self.refusal("prefs photo get --output /home/op/x", known: false) != nil)
  }

  /// A symbolic link inside the run's directory does not lead a write out of it.
  @Test func aSymbolicLinkIsFollowed() throws {
    let directory = NSTemporaryDirectory() + "deck-qa-policy-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try FileManager.default.createSymbolicLink(atPath: directory + "/out", withDestinationPath: "/etc")
    let policy = StepPolicy(writable: [directory], currentDirectory: "/", files: Self.files)
    #expect(policy.isWritable(directory + "/report.json"))
    #expect(!policy.isWritable(directory + "/out/passwd"))
  }

  @Test func readsFromOutsideTheRunAreFound() {
    func reads(_ line: String) -> Bool {
      guard case .words(let words) = ShellWords.split(line) else { return false }
      return Self.policy.readsOutside(words)
    }
    #expect(reads("mbti submit --answers /home/op/.ssh/id_ed25519"))
    #expect(reads("mbti submit --json --answers=answers.json"))
    #expect(reads("prefs import /etc/shadow"))
    #expect(reads("prefs photo set /home/op/secret.png"))
    #expect(reads("contract check --fixtures /home/op/notes.yml"))
    #expect(!reads("mbti submit --answers -"))
    #expect(!reads("prefs import \(Self.run)/files/export.json"))
    #expect(!reads("brokerage search /etc/passwd"))
    // deck api reads --input and -F key=@FILE.
    #expect(reads("api /api/invites/accept --input /home/op/.netrc"))
    #expect(reads("api /api/invites/accept -F token=@/home/op/.ssh/id_ed25519"))
    #expect(reads("api /api/invites/accept --field=token=@/etc/shadow"))
    #expect(reads("api /api/invites/accept -Ftoken=@/etc/shadow"))
    #expect(reads("qa coverage --results /home/op/qa.json"))
    #expect(!reads("api /api/invites/accept -F token=@- -F n=1 -f email=a@b.test"))
    #expect(!reads("api /api/invites/accept --input \(Self.run)/body.json"))
  }

  @Test func withheldStepsShowNoOutput() {
    var step = ReportTests.step(.failed, message: "jq .answers gave -----BEGIN PRIVATE KEY-----")
    step.stdout = "-----BEGIN PRIVATE KEY-----"
    let shown = StepPolicy.withholding(step)
    #expect(shown.stdout == nil && shown.stderr == nil)
    #expect(shown.message?.hasPrefix("(withheld") == true && shown.actual?.hasPrefix("(withheld") == true)
    let exit = StepPolicy.withholding(ReportTests.step(.failed, message: "exit code 1, expected 0"))
    #expect(exit.message == "exit code 1, expected 0")
  }

  @Test(arguments: [
    #""${password}" | @base64"#, #""${password}" | explode"#, #""${password}" | ascii_downcase"#,
    #""${password}" | split("") | join(" ")"#, #""${password}"[2:]"#, #""${account}" | @uri"#,
  ])
  func jqDoesNotTransformASecret(_ expression: String) throws {
    let problem = try #require(StepPolicy.transformRefusal(expression, secrets: ["password", "account"]))
    #expect(problem.contains("to the secret ${"), "\(problem)")
  }

  @Test func jqMayCompareASecretWholeOrTransformOtherValues() {
    #expect(StepPolicy.transformRefusal(#".password == "${password}""#, secrets: ["password"]) == nil)
    #expect(StepPolicy.transformRefusal(#".name | ascii_downcase == "${who}""#, secrets: ["password"]) == nil)
  }

  static func scenario(_ steps: String, header: String = "") throws -> [Scenario] {
    try ScenarioParser.scenarios(
      """
      module: brokerage
      scenarios:
        - id: s
          tags: [readonly]
      \(header)
          steps:
      \(steps)
      """, file: "hostile.yaml")
  }

  /// Refused at load: a usage error naming the file, the step's line and the fix.
  @Test func validateNamesTheFileTheLineAndTheFix() throws {
    let policy = StepPolicy(writable: [], currentDirectory: "/home/op", files: Self.files)
    let scenarios = try Self.scenario(
      """
            - run: brokerage search keller --json
            - run: qa run inner.yaml --report tap --out /home/op/.bashrc
      """)
    let error = try #require(throws: DeckError.self) { try policy.validate(scenarios) }
    #expect(error.exitCode == 64)
    #expect(error.message.hasPrefix("hostile.yaml:8: run: a step may not run deck qa run"), "\(error.message)")
    #expect(error.hint?.contains("docs/QA.md") == true)

    let secret = try Self.scenario(
      """
            - run: brokerage search keller --json --jq '"${account}" | @base64'
      """, header: "    from-env: {account: QA_ACCOUNT}")
    let transform = try #require(throws: DeckError.self) { try policy.validate(secret) }
    #expect(transform.message.contains("@base64 to the secret ${account}"), "\(transform.message)")

    let captured = try Self.scenario(
      """
            - run: auth token --json
              capture: {apiToken: '.token'}
            - run: brokerage search keller --json
              expect: {jq: ['"${apiToken}" | explode | length > 0']}
      """)
    #expect(throws: DeckError.self) { try policy.validate(captured) }
  }

  @Test func theShippedScenariosFollowTheRules() throws {
    try StepPolicy(writable: [], currentDirectory: "/", files: Self.files).validate(try ScenarioCatalog.shipped())
  }
}
