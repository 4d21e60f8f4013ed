import Foundation
import TestSupport
import Testing

/// Tab in a real bash, zsh and fish on a pseudo-terminal, with the script `deck completion
/// SHELL` prints, completing a brokerage name from a served sandbox: a multi-word value,
/// typed escaped, double-quoted, single-quoted or in the wrong case. After the Tab the line
/// is turned into `printf '<%s>\n' …` and run, so the shell itself says which word the
/// completed text stands for.
@Suite("Shell completion on a terminal", .endToEndTimeLimit)
struct ShellCompletionPTYTests {
  static let name = "Keller Williams Realty Boston Northwest"

  /// What the user typed after `deck brokerage search `: each names that brokerage alone.
  static let typed = [
    #"Keller\ Williams\ Realty\ B"#,
    #""Keller Williams Realty B"#,
    #"'Keller Williams Realty B"#,
    #"keller\ williams\ realty\ b"#,
    #""keller williams realty b"#,
  ]

  static let cases: [(String, String)] = ["bash", "zsh", "fish"].flatMap { shell in typed.map { (shell, $0) } }

  @Test(arguments: cases)
  func completesAMultiWordLiveValue(shell: String, typed: String) throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let terminal = try Self.shell(shell, deck: deck)
    try terminal.expect("READY> ", timeout: 20)
    terminal.send("deck brokerage search \(typed)")
    // A completion callback has a time budget; a busy machine may need a second Tab.
    var completed = false
    for _ in 0..<5 where !completed {
      terminal.send("\t")
      completed = (try? terminal.expect("Northwest", timeout: 4)) != nil
    }
    #expect(completed, "\(shell) completed `\(typed)` to nothing")
    // Ctrl-A, then print the words of the line instead of running it.
    terminal.send("\u{01}printf '<%s>\\n' \r")
    try terminal.expect("<search>")
    let rest = try terminal.expect("READY> ")
    #expect(rest.contains("<\(Self.name)>"), "\(shell) completed `\(typed)` to another word:\n\(rest)")
  }

  /// `key=value` words (issue 45, 3): bash splits words at `=`, and completed the value against
  /// key names (`primaryPosition=positions\=`) and keys as `graduationYear\=`. Each shell
  /// completes the sport's position after `primaryPosition=`, and a key to `key=` as typed.
  @Test(arguments: [
    ("bash", "primaryPosition=Poi", "primaryPosition=Point Guard"),
    ("zsh", "primaryPosition=Poi", "primaryPosition=Point Guard"),
    ("fish", "primaryPosition=Poi", "primaryPosition=Point Guard"),
    ("bash", "graduat", "graduationYear="),
    ("zsh", "graduat", "graduationYear="),
    ("fish", "graduat", "graduationYear="),
  ])
  func completesKeyValueWords(shell: String, typed: String, word: String) throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let terminal = try Self.shell(shell, deck: deck)
    try terminal.expect("READY> ", timeout: 20)
    terminal.send("deck prefs set player primarySport=Basketball \(typed)")
    var screen = ""
    var completed = false
    for _ in 0..<5 where !completed {
      terminal.send("\t")
      if let text = try? terminal.expect(String(word.suffix(6)), timeout: 4) {
        screen += text
        completed = true
      }
    }
    #expect(completed, "\(shell) completed `\(typed)` to nothing")
    #expect(!screen.contains("\\="), "\(shell) wrote an escaped `=`: \(screen)")
    terminal.send("\u{01}printf '<%s>\\n' \r")
    try terminal.expect("<set>")
    let rest = try terminal.expect("READY> ")
    #expect(rest.contains("<\(word)>"), "\(shell) completed `\(typed)` to another word:\n\(rest)")
    #expect(rest.contains("<primarySport=Basketball>"))
  }

  /// An option that names a file completes file names of its extensions only: beside
  /// `quiz.csv`, `--answers` (JSON) completes `qu` to `quiz.json`.
  @Test(arguments: ["bash", "zsh", "fish"])
  func completesFileNamesOfTheOptionsExtensions(shell: String) throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let work = deck.home + "/work"
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    for name in ["quiz.json", "quiz.csv"] { try Data("{}".utf8).write(to: URL(fileURLWithPath: work + "/" + name)) }
    let terminal = try Self.shell(shell, deck: deck)
    try terminal.expect("READY> ", timeout: 20)
    terminal.send("deck mbti submit --answers \(work)/qu\t")
    try terminal.expect("quiz.json", timeout: 10)
    terminal.send("\u{01}printf '<%s>\\n' \r")
    try terminal.expect("<submit>")
    let rest = try terminal.expect("READY> ")
    #expect(rest.contains("<\(work)/quiz.json>"), "\(shell) completed the file to another word:\n\(rest)")
  }

  /// `shell`, interactive, reading deck's completion script the way a user installs it, with
  /// deck on PATH and a prompt the test can wait for.
  static func shell(_ shell: String, deck: DeckCLI) throws -> PseudoTerminal {
    let script = try deck.run(["completion", shell])
    try #require(script.status == 0)
    let home = deck.home
    let bin = URL(fileURLWithPath: DeckCLI.binary).deletingLastPathComponent().path
    var environment = deck.environment
    environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    environment["TERM"] = "xterm"
    environment["INPUTRC"] = "/dev/null"
    let manager = FileManager.default
    let arguments: [String]
    switch shell {
    case "bash":
      let file = home + "/deck.bash"
      try script.stdout.write(toFile: file, atomically: true, encoding: .utf8)
      try "PS1='READY> '\nsource \(file)\n".write(toFile: home + "/bashrc", atomically: true, encoding: .utf8)
      arguments = ["--noprofile", "--rcfile", home + "/bashrc", "-i"]
    case "zsh":
      let functions = home + "/zsh-functions"
      try manager.createDirectory(atPath: functions, withIntermediateDirectories: true)
      try script.stdout.write(toFile: functions + "/_deck", atomically: true, encoding: .utf8)
      let rc = """
        PS1='READY> '
        fpath=(\(functions) $fpath)
        autoload -Uz compinit && compinit -u -d \(home)/zcompdump
        """
      try rc.write(toFile: home + "/.zshrc", atomically: true, encoding: .utf8)
      environment["ZDOTDIR"] = home
      arguments = ["-i"]
    default:
      let completions = home + "/config/fish/completions"
      try manager.createDirectory(atPath: completions, withIntermediateDirectories: true)
      try script.stdout.write(toFile: completions + "/deck.fish", atomically: true, encoding: .utf8)
      let rc = "set -g fish_greeting\nfunction fish_prompt; printf 'READY> '; end\n"
      try rc.write(toFile: home + "/config/fish/config.fish", atomically: true, encoding: .utf8)
      arguments = ["-i"]
    }
    let executable = try #require(
      ["/usr/bin/\(shell)", "/bin/\(shell)"].first { manager.isExecutableFile(atPath: $0) },
      "\(shell) is not installed: scripts/setup installs it")
    return try PseudoTerminal(executable: executable, arguments: arguments, environment: environment)
  }
}
