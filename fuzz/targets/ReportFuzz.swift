import DeckCore
import Foundation

// libFuzzer target: `deck qa run`'s report writers (QAReport: TAP 13, JUnit, JSON) on results
// whose every text (id, title, module, file, step line, message, expected, actual, output, skip
// reason) comes from the input. Each report has one line per record (no text adds or splits a
// line: no control character is written raw) and reads back: TAP descriptions and diagnostics
// to the texts, JUnit names to the texts less what XML 1.0 cannot hold, JSON to the texts.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let first = bytes.first else { return 0 }
  // 0xFF never occurs in UTF-8: it separates the texts.
  let texts = bytes.dropFirst().split(separator: 0xFF, omittingEmptySubsequences: false).map {
    String(decoding: $0, as: UTF8.self)
  }
  func text(_ index: Int) -> String { texts.isEmpty ? "" : texts[index % texts.count] }
  let count = Int(first & 3) + 1
  var results: [ScenarioResult] = []
  for index in 0..<count {
    let base = index * 11
    let scenario = Scenario(
      id: text(base), title: text(base + 1), module: text(base + 2), covers: [], tags: [.readonly], generate: [],
      vars: [], steps: [], file: text(base + 3), line: index + 1)
    let kind = (Int(first) >> (2 + index * 2)) & 3
    let step = StepResult(
      number: 1, line: text(base + 4), fileLine: 3, status: kind == 2 ? .error : .failed, exitCode: 1, seconds: 0.5,
      message: text(base + 5), expected: text(base + 6), actual: text(base + 7), stdout: text(base + 8),
      stderr: text(base + 9))
    let status: ScenarioResult.Status =
      switch kind {
      case 0: .passed
      case 1: .failed
      case 2: .error
      default: .skipped(reason: text(base + 10))
      }
    results.append(
      ScenarioResult(scenario: scenario, status: status, steps: kind == 1 || kind == 2 ? [step] : [], seconds: 1))
  }
  let report = QAReport(environment: "local", results: results, seconds: 1, timestamp: Date(timeIntervalSince1970: 0))
  checkTAP(report.tap(), results)
  checkJUnit(report.junit(), results)
  checkJSON(report.json(), results)
  return 0
}

func rawControls(_ text: String) -> Bool {
  text.unicodeScalars.contains { $0 != "\n" && ReportText.isControl($0) }
}

func lines(_ text: String) -> [String] {
  precondition(text.hasSuffix("\n"), "a report does not end with a line break")
  return text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
}

// MARK: TAP

func checkTAP(_ tap: String, _ results: [ScenarioResult]) {
  precondition(!rawControls(tap), "a control character reached the TAP report: \(tap.debugDescription)")
  var rest = lines(tap)[...]
  precondition(rest.popFirst() == "TAP version 13" && rest.popFirst() == "1..\(results.count)", "no TAP header")
  for (index, result) in results.enumerated() {
    let number = index + 1
    let name = result.scenario.id + (result.scenario.title.isEmpty ? "" : " - " + result.scenario.title)
    guard let line = rest.popFirst() else { preconditionFailure("test line \(number) is missing") }
    let passed = result.status == .passed || result.status.name == "skipped"
    let prefix = (passed ? "ok " : "not ok ") + "\(number) - "
    precondition(
      line.unicodeScalars.starts(with: prefix.unicodeScalars), "test line \(number) is \(line.debugDescription)")
    let (description, directive) = readTAPDescription(dropScalars(line, prefix.unicodeScalars.count))
    precondition(description == name, "the description reads back as \(description.debugDescription)")
    if case .skipped(let reason) = result.status {
      precondition(directive.map { readTAPDescription($0).text } == " SKIP \(reason)", "the SKIP reason changed")
    } else {
      precondition(directive == nil, "a text started a directive: \(line.debugDescription)")
    }
    guard !passed else { continue }
    precondition(rest.popFirst() == "  ---", "no diagnostic block")
    var fields: [String: String] = [:]
    while let line = rest.popFirst(), line != "  ..." {
      let scalars = line.unicodeScalars
      guard scalars.starts(with: "  ".unicodeScalars), let colon = scalars.firstIndex(of: ":") else {
        preconditionFailure("a diagnostic line is \(line.debugDescription)")
      }
      let key = string(scalars[scalars.index(scalars.startIndex, offsetBy: 2)..<colon])
      let value = string(scalars[scalars.index(colon, offsetBy: 2)...])
      fields[key] =
        (try? JSONSerialization.jsonObject(with: Data(value.utf8), options: .fragmentsAllowed)).map { "\($0)" }
    }
    precondition(fields["module"] == result.scenario.module, "module reads back as \(fields["module"] ?? "nil")")
    precondition(fields["file"] == result.scenario.place, "file reads back as \(fields["file"] ?? "nil")")
    precondition(fields["command"] == result.steps.first?.line, "command reads back as \(fields["command"] ?? "nil")")
    precondition(fields["message"] == result.steps.first?.message, "message reads back differently")
  }
  precondition(rest.isEmpty, "lines after the last test: \(Array(rest))")
}

/// `text` less its first `count` scalars (a prefix by scalars, as a TAP reader reads bytes,
/// not Characters: a combining mark after the prefix is not part of it).
func dropScalars(_ text: String, _ count: Int) -> String { string(text.unicodeScalars.dropFirst(count)) }

func string(_ scalars: some Sequence<Unicode.Scalar>) -> String {
  var result = ""
  result.unicodeScalars.append(contentsOf: scalars)
  return result
}

/// A description as a TAP reader takes it: `\\`, `\#` and deck's escapes undone; an unescaped
/// `#` starts the directive.
func readTAPDescription(_ text: String) -> (text: String, directive: String?) {
  var result = ""
  var scalars = Array(text.unicodeScalars)[...]
  while let scalar = scalars.popFirst() {
    if scalar == "#" {
      precondition(result.unicodeScalars.last == " ", "a directive without a space before it")
      var directive = ""
      directive.unicodeScalars.append(contentsOf: scalars)
      result.unicodeScalars.removeLast()
      return (result, directive)
    }
    guard scalar == "\\", let next = scalars.popFirst() else {
      result.unicodeScalars.append(scalar)
      continue
    }
    switch next {
    case "n": result += "\n"
    case "r": result += "\r"
    case "t": result += "\t"
    case "u":
      precondition(scalars.popFirst() == "{", "a \\u without {")
      var hex = ""
      while let digit = scalars.popFirst(), digit != "}" { hex.unicodeScalars.append(digit) }
      guard let value = UInt32(hex, radix: 16), let escaped = Unicode.Scalar(value) else {
        preconditionFailure("a bad \\u{\(hex)}")
      }
      result.unicodeScalars.append(escaped)
    default: result.unicodeScalars.append(next)
    }
  }
  return (result, nil)
}

// MARK: JUnit

func checkJUnit(_ xml: String, _ results: [ScenarioResult]) {
  precondition(!rawControls(xml), "a control character reached the JUnit report: \(xml.debugDescription)")
  let all = lines(xml)
  let modules = Set(results.map(\.scenario.module)).count
  let cases = results.reduce(0) { total, result in
    switch result.status {
    case .passed: return total + 1
    case .skipped: return total + 3
    case .failed, .error:
      let step = result.steps.first
      return total + 3 + (step?.stdout?.isEmpty == false ? 1 : 0) + (step?.stderr?.isEmpty == false ? 1 : 0)
    }
  }
  precondition(all.count == 3 + modules * 5 + cases, "\(all.count) lines, not one per element: \(xml)")
  let head = "    <testcase name=\"".unicodeScalars
  let names = all.filter { $0.unicodeScalars.starts(with: head) }.map { line in
    var value = ""
    value.unicodeScalars.append(contentsOf: line.unicodeScalars.dropFirst(head.count).prefix { $0 != "\"" })
    precondition(!value.unicodeScalars.contains("<") && !value.unicodeScalars.contains(">"), "an unescaped < or >")
    return unescapeXML(value)
  }
  // The report groups the scenarios by module, in the order each module first appears.
  let order = results.map(\.scenario.module).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
  let expected = order.flatMap { module in
    results.filter { $0.scenario.module == module }.map { result in
      xmlCanHold(result.scenario.id + (result.scenario.title.isEmpty ? "" : ": " + result.scenario.title))
    }
  }
  precondition(names == expected, "testcase names read back as \(names), not \(expected)")
}

/// What XML 1.0 can hold of `text`: the C0 controls but tab, LF and CR, and U+FFFE/U+FFFF dropped.
func xmlCanHold(_ text: String) -> String {
  var result = ""
  result.unicodeScalars.append(
    contentsOf: text.unicodeScalars.filter {
      ($0.value >= 0x20 || ["\t", "\n", "\r"].contains($0)) && $0.value != 0xFFFE && $0.value != 0xFFFF
    })
  return result
}

func unescapeXML(_ text: String) -> String {
  var result = ""
  var rest = text.unicodeScalars[...]
  while let amp = rest.firstIndex(of: "&") {
    result.unicodeScalars.append(contentsOf: rest[..<amp])
    guard let semicolon = rest[amp...].firstIndex(of: ";") else { preconditionFailure("an unterminated reference") }
    let entity = string(rest[rest.index(after: amp)..<semicolon])
    switch entity {
    case "amp": result += "&"
    case "lt": result += "<"
    case "gt": result += ">"
    case "quot": result += "\""
    case "apos": result += "'"
    default:
      guard entity.hasPrefix("#"), let value = UInt32(entity.dropFirst()), let scalar = Unicode.Scalar(value) else {
        preconditionFailure("an unknown reference &\(entity);")
      }
      result.unicodeScalars.append(scalar)
    }
    rest = rest[rest.index(after: semicolon)...]
  }
  result.unicodeScalars.append(contentsOf: rest)
  return result
}

// MARK: JSON

func checkJSON(_ text: String, _ results: [ScenarioResult]) {
  precondition(!rawControls(text), "a control character reached the JSON report: \(text.debugDescription)")
  guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
    let scenarios = object["scenarios"] as? [[String: Any]]
  else { preconditionFailure("the JSON report does not read back: \(text)") }
  precondition(scenarios.count == results.count, "the JSON report lost a scenario")
  for (scenario, result) in zip(scenarios, results) {
    precondition(scenario["title"] as? String == result.scenario.title, "a title reads back differently")
    precondition(scenario["id"] as? String == result.scenario.id, "an id reads back differently")
  }
}
