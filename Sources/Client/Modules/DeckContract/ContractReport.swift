import ContractCheck
import DeckCore
import DeckNetworking
import DeckSupport
import DeckValues
import FoundationEssentials

/// What one operation's probe found.
struct ContractResult: Sendable {
  enum Outcome: Sendable {
    case passed
    case drift([ContractFinding])
    /// Every finding is one the baseline accepts (`accepted`).
    case accepted
    /// The answer says nothing about the contract (401, 403, 429).
    case inconclusive(String)
    /// Nothing answered (connection refused, timeout).
    case unreachable(String)
    /// Not sent, and why.
    case skipped(String)
  }

  var service: String
  var document: String
  var operation: String
  var method: String
  var path: String
  /// What was sent: method and path with its parameters.
  var request: String?
  var status: Int?
  var outcome: Outcome = .skipped("not sent")
  /// Findings the baseline accepts (not counted as drift).
  var accepted: [ContractFinding] = []

  init(entry: ContractCatalog.Entry, operation: ContractOperation) {
    service = entry.service.rawValue
    document = entry.document.name
    self.operation = operation.id
    method = operation.method
    path = operation.path
  }

  var findings: [ContractFinding] {
    if case .drift(let findings) = outcome { return findings }
    return []
  }
}

struct ContractRun: Sendable {
  var results: [ContractResult]
  var requests: Int
  var stoppedByRateLimit: Bool
  /// The baseline's entries no answer showed, though their operation was checked: the drift
  /// they accepted is gone (or changed), and the entry could hide it coming back.
  var stale: [ContractBaseline.Key] = []

  /// Moves the findings the baseline lists out of the drift, and finds its stale entries.
  mutating func apply(_ baseline: ContractBaseline) {
    var checked = Set<String>()
    var found = Set<ContractBaseline.Key>()
    for index in results.indices {
      switch results[index].outcome {
      case .passed, .accepted: checked.insert(results[index].operation)
      case .drift(let findings):
        checked.insert(results[index].operation)
        found.formUnion(findings.map(ContractBaseline.key))
        let (accepted, new) = findings.reduce(into: ([ContractFinding](), [ContractFinding]())) { split, finding in
          if baseline.accepts(finding) { split.0.append(finding) } else { split.1.append(finding) }
        }
        results[index].accepted = accepted
        results[index].outcome = new.isEmpty ? .accepted : .drift(new)
      case .inconclusive, .unreachable, .skipped: continue
      }
    }
    stale = baseline.accepted.filter { checked.contains($0.operation) && !found.contains($0) }
  }

  var counts: ContractReport.Counts {
    var counts = ContractReport.Counts()
    for result in results {
      counts.accepted += result.accepted.count
      switch result.outcome {
      case .passed: counts.passed += 1
      case .accepted: counts.acceptedOperations += 1
      case .drift(let findings):
        counts.drifted += 1
        counts.findings += findings.count
      case .inconclusive: counts.inconclusive += 1
      case .unreachable: counts.unreachable += 1
      case .skipped: counts.skipped += 1
      }
    }
    return counts
  }
}

/// The findings accepted for an environment: `--baseline FILE`, written by `--write-baseline`.
/// A finding is the same when its operation, kind, path and expectation are (what came back
/// may vary from one answer to the next).
struct ContractBaseline: Codable, Sendable, Equatable {
  struct Key: Codable, Hashable, Sendable {
    var operation: String
    var kind: String
    var path: String
    var expected: String
  }

  var accepted: [Key]

  init(findings: [ContractFinding]) {
    accepted = findings.map(Self.key).sorted { ($0.operation, $0.path, $0.kind) < ($1.operation, $1.path, $1.kind) }
  }

  func accepts(_ finding: ContractFinding) -> Bool { Set(accepted).contains(Self.key(finding)) }

  static func key(_ finding: ContractFinding) -> Key {
    Key(operation: finding.operation, kind: finding.kind.rawValue, path: finding.path, expected: finding.expected)
  }

  static func load(_ path: String) throws -> ContractBaseline {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw DeckError.usage(
        "The baseline file \(path) does not exist.",
        hint: "Write it with: deck contract check --baseline \(path) --write-baseline")
    }
    do {
      return try JSONDecoder().decode(ContractBaseline.self, from: data)
    } catch {
      throw DeckError.usage(
        "The baseline file \(path) is not a contract check baseline: \(ErrorText.describe(error))",
        hint: "Write it again with: deck contract check --baseline \(path) --write-baseline")
    }
  }
}

/// The report of a run: what `--json`, `--report json|junit` and the table show. Every text in
/// it passes through `redact`: a token that a server echoed never reaches a report.
struct ContractReport: Encodable, Sendable {
  struct Counts: Encodable, Sendable, Equatable {
    var passed = 0
    var drifted = 0
    var findings = 0
    var inconclusive = 0
    var unreachable = 0
    var skipped = 0
    /// Findings the baseline accepts, and the operations whose findings it all accepts.
    var accepted = 0
    var acceptedOperations = 0
    /// Baseline entries no answer showed.
    var stale = 0
  }

  struct Operation: Encodable, Sendable {
    var service: String
    var document: String
    var operation: String
    var method: String
    var path: String
    var request: String?
    var status: Int?
    /// passed, drift, accepted (every finding in the baseline), inconclusive, unreachable or
    /// skipped.
    var result: String
    var reason: String?
    var findings: [Finding]
    var accepted: [Finding]
  }

  struct Finding: Encodable, Sendable {
    var kind: String
    var path: String
    var expected: String
    var actual: String
    var message: String
  }

  var environment: String
  var requests: Int
  var counts: Counts
  var operations: [Operation]
  /// The baseline's entries that matched no finding of an operation that was checked.
  var stale: [ContractBaseline.Key]

  /// `secrets`: the values a report must never show, in any encoding (the tokens deck holds
  /// for the environment: a server may reflect one that is no JSON Web Token).
  init(environment: String, run: ContractRun, secrets: [String] = []) {
    self.environment = environment
    requests = run.requests
    counts = run.counts
    counts.stale = run.stale.count
    stale = run.stale
    // `secrets` masked wherever and however they appear, then tokens masked as `--trace` masks
    // them (JSON Web Tokens, `Bearer` values).
    let masker = SecretMasker(secrets, mask: Redactor.mask)
    let redact = { (text: String) in Redactor.redact(text: masker.masking(text)) }
    operations = run.results.map { result in
      let (name, reason): (String, String?) =
        switch result.outcome {
        case .passed: ("passed", nil)
        case .drift: ("drift", nil)
        case .accepted:
          (
            "accepted",
            "\(result.accepted.count) finding\(result.accepted.count == 1 ? "" : "s") accepted by the baseline"
          )
        case .inconclusive(let why): ("inconclusive", why)
        case .unreachable(let why): ("unreachable", why)
        case .skipped(let why): ("skipped", why)
        }
      return Operation(
        service: result.service, document: result.document, operation: result.operation, method: result.method,
        path: result.path, request: result.request.map(redact), status: result.status, result: name,
        reason: reason.map(redact), findings: result.findings.map { Self.finding($0, redact: redact) },
        accepted: result.accepted.map { Self.finding($0, redact: redact) })
    }
  }

  static func finding(_ finding: ContractFinding, redact: (String) -> String) -> Finding {
    Finding(
      kind: finding.kind.rawValue, path: redact(finding.path), expected: redact(finding.expected),
      actual: redact(finding.actual), message: redact(finding.message))
  }

  /// The JSON report: deck's encoder, with every control character escaped.
  func json() throws -> String {
    ReportText.json(String(decoding: try DeckJSON.encoder.encode(self), as: UTF8.self)) + "\n"
  }

  var summary: String {
    var parts = ["\(operations.count) operation\(operations.count == 1 ? "" : "s"): \(counts.passed) passed"]
    if counts.drifted > 0 {
      parts.append("\(counts.drifted) drifted (\(counts.findings) finding\(counts.findings == 1 ? "" : "s"))")
    }
    if counts.inconclusive > 0 { parts.append("\(counts.inconclusive) inconclusive") }
    if counts.unreachable > 0 { parts.append("\(counts.unreachable) unreachable") }
    if counts.acceptedOperations > 0 { parts.append("\(counts.acceptedOperations) accepted") }
    if counts.skipped > 0 { parts.append("\(counts.skipped) skipped") }
    var text = parts.joined(separator: ", ")
    if counts.accepted > 0 { text += "; \(counts.accepted) accepted by the baseline" }
    if counts.stale > 0 {
      text += "; \(counts.stale) stale baseline entr\(counts.stale == 1 ? "y" : "ies") (no longer found)"
    }
    return text + " (\(requests) request\(requests == 1 ? "" : "s") to \(environment))."
  }

  /// One line an operation, its findings under it; every control character escaped.
  func text(style: (String, String) -> String) -> String {
    var lines: [String] = []
    for operation in operations {
      let (symbol, color) =
        switch operation.result {
        case "passed": ("✓", "green")
        case "drift": ("✗", "red")
        case "skipped": ("-", "plain")
        case "accepted": ("~", "yellow")
        default: ("?", "yellow")
        }
      let text = ReportText.oneLine
      var line =
        "\(style(symbol, color)) \(text(operation.service)) \(text(operation.operation))  \(operation.method) \(text(operation.path))"
      if let status = operation.status { line += "  → \(status)" }
      if let reason = operation.reason { line += "  (\(operation.result): \(text(reason)))" }
      lines.append(line)
      for finding in operation.findings {
        lines.append(
          "    \(text(finding.path.isEmpty ? finding.kind : finding.path)): expected \(text(finding.expected)), got \(text(finding.actual))"
        )
      }
      for finding in operation.accepted {
        lines.append(
          "    accepted: \(text(finding.path.isEmpty ? finding.kind : finding.path)): expected \(text(finding.expected)), got \(text(finding.actual))"
        )
      }
    }
    for entry in stale {
      let text = ReportText.oneLine
      lines.append(
        "\(style("!", "yellow")) stale baseline entry: \(text(entry.operation)) \(text(entry.path.isEmpty ? entry.kind : entry.path)): expected \(text(entry.expected)); no answer shows it now (write the baseline again to drop it)"
      )
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// JUnit XML (Tests/QATests/junit.xsd, as the QA reports): one testsuite per service, one
  /// testcase per operation (classname: the service and document), `failure` for drift,
  /// `error` for an operation nothing answered, `skipped` for the inconclusive, the skipped and
  /// the accepted (its reason says so); a stale baseline entry is a property of its service's
  /// suite.
  func junit() -> String {
    let byService = Dictionary(grouping: operations, by: \.service)
    var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
    xml +=
      #"<testsuites name="deck contract check" tests="\#(operations.count)" failures="\#(counts.drifted)" errors="\#(counts.unreachable)">"#
      + "\n"
    for service in byService.keys.sorted() {
      let cases = byService[service] ?? []
      let failures = cases.filter { $0.result == "drift" }.count
      let errors = cases.filter { $0.result == "unreachable" }.count
      let skipped = cases.filter { ["inconclusive", "skipped", "accepted"].contains($0.result) }.count
      xml +=
        #"  <testsuite name="\#(Self.escape(service))" tests="\#(cases.count)" failures="\#(failures)" errors="\#(errors)" skipped="\#(skipped)">"#
        + "\n"
      let ids = Set(cases.map(\.operation))
      let staleHere = stale.filter { ids.contains($0.operation) }
      if !staleHere.isEmpty {
        xml += "    <properties>\n"
        for entry in staleHere {
          let value = "\(entry.operation) \(entry.kind) \(entry.path): expected \(entry.expected)"
          xml += "      <property name=\"stale-baseline-entry\" value=\"\(Self.escape(value))\"/>\n"
        }
        xml += "    </properties>\n"
      }
      for operation in cases {
        xml +=
          #"    <testcase classname="\#(Self.escape("\(environment).\(operation.service).\(operation.document)"))" name="\#(Self.escape("\(operation.operation) \(operation.method) \(operation.path)"))">"#
        switch operation.result {
        case "drift":
          let details = operation.findings.map(\.message).joined(separator: "\n")
          xml +=
            "\n      <failure message=\"\(Self.escape("\(operation.findings.count) finding\(operation.findings.count == 1 ? "" : "s")"))\" type=\"drift\">\(Self.escape(details))</failure>\n    "
        case "unreachable":
          xml += "\n      <error message=\"\(Self.escape(operation.reason ?? ""))\" type=\"unreachable\"/>\n    "
        case "inconclusive", "skipped", "accepted":
          xml += "\n      <skipped message=\"\(Self.escape("\(operation.result): \(operation.reason ?? "")"))\"/>\n    "
        default:
          break
        }
        xml += "</testcase>\n"
      }
      xml += "  </testsuite>\n"
    }
    return xml + "</testsuites>\n"
  }

  static func escape(_ text: String) -> String { MarkupText.escape(text) }
}
