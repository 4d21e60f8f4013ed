import DeckSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading secrets and answers from the user.
public enum TerminalInput {
  /// All of stdin's first line, for `--password-stdin` and `--with-token`.
  public static func readSecretFromStdin(what: String, flag: String) throws -> String {
    // On a terminal (e.g. in the REPL) ask for one line without echo instead of waiting for EOF.
    if isatty(0) == 1 { return try promptSecret("\(what.prefix(1).uppercased() + what.dropFirst()): ") }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(0, &buffer, buffer.count)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      bytes += buffer[0..<count]
      if bytes.count > 1 << 20 { break }
    }
    let text = String(decoding: bytes, as: UTF8.self)
    let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
    let secret = line.hasSuffix("\r") ? String(line.dropLast()) : line
    guard !secret.isEmpty else {
      throw DeckError.usage(
        "\(flag) read an empty \(what) from stdin.", hint: "Pipe it in, e.g.: printf '%s' \"$SECRET\" | deck … \(flag)")
    }
    return secret
  }

  /// Prompts on the terminal with echo turned off (restored on every path).
  public static func promptSecret(_ prompt: String) throws -> String {
    guard isatty(0) == 1 else {
      throw DeckError.usage("No terminal to ask for the password on.", hint: "Pass it on stdin with --password-stdin.")
    }
    var original = termios()
    tcgetattr(0, &original)
    var silent = original
    silent.c_lflag &= ~tcflag_t(ECHO)
    // Echo goes off before the prompt appears, and nothing typed ahead is discarded.
    tcsetattr(0, TCSANOW, &silent)
    writeStderr(prompt)
    defer {
      tcsetattr(0, TCSANOW, &original)
      writeStderr("\n")
    }
    guard let line = readLine(strippingNewline: true), !line.isEmpty else {
      throw DeckError.usage("Nothing was entered.")
    }
    return line
  }

  public static var stdinIsTerminal: Bool { isatty(0) == 1 }

  private static func writeStderr(_ text: String) {
    var bytes = Array(text.utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
  }
}
