import DeckValues
import Foundation
import PrefsRules

/// The messages `applying` refuses `assignments` with, or [] when it accepts them.
func refusal<Record: FieldRecord>(_ record: Record, _ assignments: [String]) -> [String] {
  do {
    _ = try record.applying(assignments)
    return []
  } catch {
    return error.messages
  }
}

/// The messages a throwing operation refuses with, or [] when it succeeds.
func refusal<Value>(_ operation: () throws(Validation) -> Value) -> [String] {
  do {
    _ = try operation()
    return []
  } catch {
    return error.messages
  }
}

/// `value` encoded and decoded again as a generic JSON value.
func encodedJSON(_ value: some Encodable) throws -> JSONValue {
  try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
}

/// The top-level object of `value`'s encoding.
func encodedObject(_ value: some Encodable) throws -> JSONObject {
  guard case .object(let object) = try encodedJSON(value) else { return JSONObject() }
  return object
}

/// Data of a JSON text.
func jsonData(_ text: String) -> Data { Data(text.utf8) }

/// Ids `id1`, `id2`, … for operations that make preferences.
final class IDCounter: @unchecked Sendable {
  private var next = 0
  func make() -> String {
    next += 1
    return "id\(next)"
  }
}
