import ContractCheck
import DeckConfig
import DeckSupport
import DeckValues
import FoundationEssentials

/// The pure part of `deck api`: the path as it goes out, the fields as a JSON body or a query,
/// the headers, and the service a path belongs to (from the contracts).
enum ApiRequest {
  /// One `-f key=value` (always a string) or `-F key=value` (typed: true, false, null and
  /// numbers as JSON, `@FILE` a file's text, `@-` stdin's).
  struct Field: Sendable {
    var key: String
    var value: JSONValue
  }

  /// `-f key=value`: the value as written.
  static func rawField(_ text: String) throws -> Field {
    let (key, value) = try split(text, option: "-f")
    return Field(key: key, value: .string(value))
  }

  /// `-F key=value`: JSON's literals and numbers typed, `@FILE` (`@-`: stdin) read.
  static func typedField(_ text: String, read: (String) throws -> String) throws -> Field {
    let (key, value) = try split(text, option: "-F")
    switch value {
    case "true": return Field(key: key, value: .bool(true))
    case "false": return Field(key: key, value: .bool(false))
    case "null": return Field(key: key, value: .null)
    default:
      if value.hasPrefix("@") { return Field(key: key, value: .string(try read(String(value.dropFirst())))) }
      if Int64(value) != nil || (Double(value)?.isFinite == true && value.allSatisfy { "0123456789.eE+-".contains($0) })
      {
        return Field(key: key, value: .number(JSONNumber(literal: value)))
      }
      return Field(key: key, value: .string(value))
    }
  }

  private static func split(_ text: String, option: String) throws -> (String, String) {
    guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
      throw DeckError.usage(
        "\(option) takes key=value, got \"\(TerminalText.sanitize(text))\".", hint: "e.g. \(option) email=a@b.test")
    }
    return (String(text[..<equals]), String(text[text.index(after: equals)...]))
  }

  /// The fields as one JSON object, in the order given (a later key replaces an earlier one).
  static func body(_ fields: [Field]) -> JSONValue {
    var object = JSONObject()
    for field in fields { object[field.key] = field.value }
    return .object(object)
  }

  /// The fields as a query string (`key=value&…`, percent-encoded; strings as they are, the
  /// rest as JSON writes them).
  static func query(_ fields: [Field]) -> String {
    fields.map { field in
      let value = field.value.stringValue ?? field.value.jsonText
      return ContractProbe.encode(field.key, allowed: .query) + "=" + ContractProbe.encode(value, allowed: .query)
    }.joined(separator: "&")
  }

  /// The path as it goes out: a path of the service (a URL is refused: the host is always the
  /// environment's), with a leading `/`, and every byte a request line cannot hold
  /// percent-encoded (`%` that starts an escape, and the query's `?&=`, stay).
  static func path(_ text: String) throws -> String {
    let lowered = text.lowercased()
    guard !lowered.hasPrefix("http://"), !lowered.hasPrefix("https://"), !text.hasPrefix("//") else {
      throw DeckError.usage(
        "deck api takes a path of the service, not a URL: \"\(TerminalText.sanitize(text))\".",
        hint:
          "Give the path, e.g. deck api /api/access/state; the host is the service's URL in the environment (deck env show)."
      )
    }
    guard !text.isEmpty else {
      throw DeckError.usage(
        "deck api needs a path, e.g. /api/access/state.", hint: "List them with: deck contract list")
    }
    let withSlash = text.hasPrefix("/") ? text : "/" + text
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/?%".utf8)
    var encoded = ""
    for byte in withSlash.utf8 {
      if allowed.contains(byte) {
        encoded.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        encoded += "%" + NumberText.hex(byte, width: 2, uppercase: true)
      }
    }
    return encoded
  }

  /// `-H 'Name: value'`, checked: a header name and a value without line breaks.
  static func header(_ text: String) throws -> (name: String, value: String) {
    guard let colon = text.firstIndex(of: ":") else {
      throw DeckError.usage(
        "-H takes 'Name: value', got \"\(TerminalText.sanitize(text))\".", hint: "e.g. -H 'Accept: application/json'")
    }
    let name = text[..<colon].trimming(.whitespaces)
    let value = text[text.index(after: colon)...].trimming(.whitespaces)
    let token = Set("!#$%&'*+-.^_`|~abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
    guard !name.isEmpty, name.utf8.allSatisfy(token.contains),
      !value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F })
    else {
      throw DeckError.usage(
        "-H \"\(TerminalText.sanitize(text))\" is not a valid header.",
        hint: "Give 'Name: value', a name of letters, digits and -, a value on one line.")
    }
    return (name, value)
  }
}

extension ContractCatalog {
  /// Whether a contract's path template (`/api/v1/kiosk/{storeId}/next`) matches `path` (no
  /// query): the same segments, a `{name}` standing for any one.
  static func template(_ template: String, matches path: String) -> Bool {
    let wanted = template.split(separator: "/", omittingEmptySubsequences: false)
    let given = path.split(separator: "/", omittingEmptySubsequences: false)
    guard wanted.count == given.count else {
      // A template's trailing slash (`/questions/`) matches the path without it, and back.
      let trim = { (text: String) in text.count > 1 && text.hasSuffix("/") ? String(text.dropLast()) : text }
      return trim(template) != template || trim(path) != path
        ? Self.template(trim(template), matches: trim(path)) : false
    }
    return zip(wanted, given).allSatisfy { part, segment in
      (part.hasPrefix("{") && part.hasSuffix("}") && !segment.isEmpty) || part == segment
    }
  }

  /// Every full path of the contracts (base path and operation path), once each, sorted.
  var paths: [String] {
    Array(Set(entries.flatMap { entry in entry.document.operations.map { entry.document.basePath + $0.path } }))
      .sorted()
  }

  /// The service whose contract has `path` (its query ignored), when exactly one has; else a
  /// usage error that lists the candidates.
  func service(forPath path: String) throws -> Service {
    let bare = String(path.prefix { $0 != "?" && $0 != "#" })
    var matching: [Service] = []
    for entry in entries where !matching.contains(entry.service) {
      let found = entry.document.operations.contains {
        Self.template(entry.document.basePath + $0.path, matches: bare)
      }
      if found { matching.append(entry.service) }
    }
    if matching.count == 1, let only = matching.first { return only }
    let shown = TerminalText.sanitize(bare)
    if matching.isEmpty {
      let services = Set(entries.map(\.service.rawValue)).sorted()
      throw DeckError.usage(
        "No contract has the path \(shown), so deck cannot tell which service serves it.",
        hint:
          "Name the service with --service (\(services.joined(separator: ", "))); list the paths with: deck contract list"
      )
    }
    throw DeckError.usage(
      "The path \(shown) is in the contracts of \(matching.map(\.rawValue).joined(separator: " and ")).",
      hint: "Say which with --service \(matching.map(\.rawValue).joined(separator: "|")).")
  }
}
