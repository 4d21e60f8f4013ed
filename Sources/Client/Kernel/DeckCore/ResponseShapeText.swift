import DeckNetworking
import DeckSupport
import FoundationEssentials
import HTTPTypes
import OpenAPIRuntime

/// A response body deck could not decode, in words: which field (a JSON path such as
/// `[0].name`), what the contract expects there and what the server sent ("`[0].name` should
/// be text but the server sent a number"). No Swift type name or decoder phrase is shown.
public enum ResponseShapeText {
  /// What is wrong with the body, as one clause without a final period.
  public static func describe(_ error: DecodingError) -> String {
    switch error {
    case .typeMismatch(let type, let context):
      return "\(place(context.codingPath)) should be \(expected(type)) but the server sent \(found(context))"
    case .valueNotFound(let type, let context):
      return "\(place(context.codingPath)) should be \(expected(type)) but the server sent null"
    case .keyNotFound(let key, let context):
      return "\(place(context.codingPath + [key])) is missing"
    case .dataCorrupted(let context):
      if context.codingPath.isEmpty, context.underlyingError != nil || context.debugDescription.contains("JSON") {
        return "the body is not valid JSON"
      }
      if let value = unknownValue(context.debugDescription) {
        return "\(place(context.codingPath)) has a value the contract does not list: \"\(value)\""
      }
      return "\(place(context.codingPath)) has a value deck cannot read"
    @unknown default:
      return "the body does not have the shape the contract gives"
    }
  }

  /// The field as a JSON path in backquotes: `[0].name`, `profile.scores`; the whole body when empty.
  static func place(_ path: [any CodingKey]) -> String {
    guard !path.isEmpty else { return "the body" }
    var text = ""
    for key in path {
      if let index = key.intValue, key.stringValue.hasPrefix("Index ") || key.stringValue == String(index) {
        text += "[\(index)]"
      } else {
        text += (text.isEmpty ? "" : ".") + key.stringValue
      }
    }
    return "`\(text)`"
  }

  /// The contract's kind of value for the type deck decodes, in words.
  static func expected(_ type: Any.Type) -> String {
    let name = String(describing: type)
    if name.hasPrefix("Array") || name.hasPrefix("[") && !name.contains(":") { return "a list" }
    if name.hasPrefix("Dictionary") || name.hasPrefix("[") { return "an object" }
    switch name {
    case "String", "Substring": return "text"
    case "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64":
      return "a whole number"
    case "Double", "Float", "Decimal": return "a number"
    case "Bool": return "true or false"
    case "Date": return "a date"
    default: return "the kind of value the contract gives"
    }
  }

  /// What the decoder found instead, from its description ("… but found a string instead.").
  static func found(_ context: DecodingError.Context) -> String {
    let text = context.debugDescription
    guard let start = text.firstRange(of: "but found "),
      let end = text[start.upperBound...].firstRange(of: " instead")
    else { return "another kind of value" }
    switch text[start.upperBound..<end.lowerBound] {
    case "a string", "string": return "text"
    case "number", "a number": return "a number"
    case "bool", "a bool", "a boolean": return "true or false"
    case "a dictionary", "dictionary": return "an object"
    case "an array", "array": return "a list"
    case "null", "a null value": return "null"
    default: return "another kind of value"
    }
  }

  /// The value of a closed list the contract does not name ("Cannot initialize State from
  /// invalid String value suspended"), at most 100 characters.
  static func unknownValue(_ description: String) -> String? {
    guard let range = description.firstRange(of: "from invalid String value ") else { return nil }
    let value = description[range.upperBound...]
    return value.count > 100 ? String(value.prefix(100)) + "…" : String(value)
  }

  /// The sandbox's fault rule that shaped a response (`X-Sandbox-Fault: rule 3`): "rule 3".
  public static func sandboxFault(_ response: HTTPResponse?) -> String? {
    guard let mark = response?.headerFields[TraceMiddleware.sandboxFault] else { return nil }
    let words = mark.split(separator: " ")
    guard words.count == 2, words[0] == "rule", let id = Int(words[1]) else { return nil }
    return "rule \(id)"
  }

  /// The error for an answer that does not decode: the field in words, and the fault rule that
  /// made it when the sandbox says one did (then the environment's URL is right).
  static func error(_ error: ClientError, _ decoding: DecodingError) -> DeckError {
    let server =
      UndocumentedResponse.service(in: error.response?.headerFields).map { "The \($0) service" }
      ?? error.baseURL?.host.map { host in error.baseURL?.port.map { "\(host):\($0)" } ?? host } ?? "The server"
    let message = "\(server) answered \(error.operationID) with a body deck cannot read: \(describe(decoding))."
    if let rule = sandboxFault(error.response) {
      let id = rule.dropFirst("rule ".count)
      return DeckError(
        .failure, message + " The sandbox's fault \(rule) changed this answer on purpose.",
        hint: "See the rules with: deck sandbox fault list; remove this one with: deck sandbox fault clear \(id)")
    }
    return DeckError(
      .failure, message,
      hint:
        "deck and the service disagree on its contract. Is the environment's URL right? Check with: deck env show; compare the service with its contract: deck contract check"
    )
  }
}
