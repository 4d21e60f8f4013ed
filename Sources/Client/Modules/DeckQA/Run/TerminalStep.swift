import DeckCore
import DeckSupport
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A step with `keys`: deck on a terminal of its own, as a person meets it (readline, prompts,
/// Tab completion), driven exchange by exchange: wait until the screen shows a text, then type.
enum TerminalStep {
  enum Outcome: Equatable {
    /// deck exited with this code after every exchange.
    case exited(Int32, screen: String)
    /// The screen never showed `waiting` (nil: deck did not exit) before the step's timeout, or
    /// before deck exited (`exit`); deck was stopped if it still ran.
    case stuck(waiting: String?, exit: Int32?, screen: String)
  }

  /// Runs `program` on a terminal through `keys`, at most `timeout` seconds in all.
  static func run(
    _ program: String, arguments: [String], environment: [String: String], keys: [Step.KeyExchange],
    timeout: Double,
    pause: @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }
  ) async throws -> Outcome {
    var environment = environment
    // readline's own defaults, whatever the operator's ~/.inputrc binds.
    environment["TERM"] = "xterm"
    environment["INPUTRC"] = "/dev/null"
    let terminal = try LocalTerminal(program, arguments: arguments, environment: environment)
    let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
    var bytes: [UInt8] = []
    var matched = 0
    var next = 0
    var interval = Duration.milliseconds(1)
    // Its exit code, once reaped (a second waitpid would not find it).
    var exitCode: Int32?
    func exited() -> Int32? {
      if exitCode == nil { exitCode = LocalProcess.exitStatus(terminal.pid) }
      return exitCode
    }
    while true {
      bytes += terminal.available()
      if next < keys.count {
        if let wait = keys[next].wait {
          let rest = TerminalScreen.text(bytes).dropFirst(matched)
          if let range = rest.firstRange(of: wait) {
            matched += rest.distance(from: rest.startIndex, to: range.upperBound)
          } else {
            if let code = exited() {
              bytes += terminal.remaining()
              if TerminalScreen.text(bytes).dropFirst(matched).firstRange(of: wait) == nil {
                return .stuck(waiting: wait, exit: code, screen: TerminalScreen.text(bytes))
              }
              continue
            }
            guard ContinuousClock.now < deadline, !Task.isCancelled else {
              await ScenarioRunner.stop(terminal.pid)
              return .stuck(waiting: wait, exit: nil, screen: TerminalScreen.text(bytes + terminal.available()))
            }
            await pause(interval)
            interval = min(interval * 2, .milliseconds(20))
            continue
          }
        }
        if let send = keys[next].send { terminal.type(send) }
        next += 1
        interval = .milliseconds(1)
        continue
      }
      if let code = exited() {
        return .exited(code, screen: TerminalScreen.text(bytes + terminal.remaining()))
      }
      guard ContinuousClock.now < deadline, !Task.isCancelled else {
        await ScenarioRunner.stop(terminal.pid)
        return .stuck(waiting: nil, exit: nil, screen: TerminalScreen.text(bytes + terminal.available()))
      }
      await pause(interval)
      interval = min(interval * 2, .milliseconds(20))
    }
  }
}

/// What a terminal shows, as text to check: the bytes a program wrote without escape
/// sequences (CSI, OSC, charset and keypad modes), carriage returns and bells, up to the last
/// complete character (a read can end inside one, or inside an escape sequence, which is
/// then left out until the rest arrives).
enum TerminalScreen {
  static func text(_ bytes: [UInt8]) -> String {
    var kept: [UInt8] = []
    kept.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      guard byte == 0x1B else {
        if ![0x0D, 0x07, 0x01, 0x02].contains(byte) { kept.append(byte) }
        index += 1
        continue
      }
      index = afterEscape(bytes, from: index + 1)
    }
    return String(decoding: kept[..<completeLength(kept)], as: UTF8.self)
  }

  /// Where the escape sequence whose introducer is at `start` - 1 ends (past it).
  static func afterEscape(_ bytes: [UInt8], from start: Int) -> Int {
    guard start < bytes.count else { return start }
    switch bytes[start] {
    case UInt8(ascii: "["):
      // CSI: parameters and intermediates, then a final byte in 0x40...0x7E.
      var index = start + 1
      while index < bytes.count, !(0x40...0x7E).contains(bytes[index]) { index += 1 }
      return min(index + 1, bytes.count)
    case UInt8(ascii: "]"):
      // OSC: up to BEL or ST (ESC \).
      var index = start + 1
      while index < bytes.count {
        if bytes[index] == 0x07 { return index + 1 }
        if bytes[index] == 0x1B, index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\\") { return index + 2 }
        index += 1
      }
      return bytes.count
    case UInt8(ascii: "("), UInt8(ascii: ")"):
      return min(start + 2, bytes.count)
    default:
      return start + 1
    }
  }

  /// `bytes` up to its last complete UTF-8 character.
  static func completeLength(_ bytes: [UInt8]) -> Int {
    var start = bytes.count - 1
    while start >= 0, bytes.count - start < 4, bytes[start] & 0xC0 == 0x80 { start -= 1 }
    guard start >= 0, bytes[start] >= 0xC0 else { return bytes.count }
    let length = bytes[start] >= 0xF0 ? 4 : bytes[start] >= 0xE0 ? 3 : 2
    return bytes.count - start < length ? start : bytes.count
  }
}

extension ScenarioRunner {
  /// Runs a step with keys on a terminal of its own: the screen becomes its stdout (its stderr
  /// is empty: a terminal shows both as one), or the step is an error naming the text the
  /// screen never showed.
  func launchOnTerminal(
    _ prepared: PreparedStep, step: Step, report: StepReport, environment: [String: String]
  ) async -> Result<Int32, Ended> {
    let outcome: TerminalStep.Outcome
    do {
      outcome = try await TerminalStep.run(
        deck, arguments: ["--env", self.environment] + prepared.words, environment: environment, keys: prepared.keys,
        timeout: step.timeout)
    } catch {
      return .failure(report.error((error as? DeckError)?.message ?? "\(error)", line: prepared.shown))
    }
    switch outcome {
    case .exited(let code, let screen):
      do {
        try AtomicFile.write(Data(screen.utf8), to: report.outputFile, mode: 0o600)
        try AtomicFile.write(Data(), to: report.errorFile, mode: 0o600)
      } catch {
        return .failure(report.error("cannot keep the step's screen: \(error)", line: prepared.shown))
      }
      return .success(code)
    case .stuck(let waiting, let exit, let screen):
      let message: String =
        switch (Task.isCancelled, waiting, exit) {
        case (true, _, _): "interrupted (stopped)"
        case (false, let text?, let code?): "deck exited (\(code)) before the terminal showed \"\(text)\""
        case (false, let text?, nil):
          "the terminal did not show \"\(text)\" within \(Self.seconds(step.timeout)) (stopped)"
        case (false, nil, _): "timed out after \(Self.seconds(step.timeout)) (stopped)"
        }
      var failed = report.result(
        .error, exit: exit,
        StepChecks.Failure(
          message: message, expected: waiting.map { "\"\($0)\" on the terminal" } ?? "an exit",
          actual: OutputExcerpt.of(screen)),
        line: prepared.shown)
      failed.stdout = OutputExcerpt.of(screen)
      return .failure(Ended(result: prepared.withheld(failed)))
    }
  }
}
