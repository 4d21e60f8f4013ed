import Foundation

/// The shape changes of `deck sandbox fault add --drop-field|--retype-field|--enum-value`:
/// the drift a real backend can show (a required property gone, a type changed, an enum value
/// the contract does not list), made on purpose so that `deck contract check` can be shown to
/// find it. Each acts on one property: the first named `field`, breadth first (the shallowest
/// one), array items in order and an object's keys sorted, so the same body always changes in
/// the same place.
enum ResponseShape {
  /// `body` with the rule's change, or unchanged when it is not JSON or has no such property.
  static func change(_ body: Data, rule: FaultRule) -> Data {
    changed(body, rule: rule) ?? body
  }

  /// `body` with the rule's change; nil when it is not JSON or has no such property (then the
  /// rule does not fire on it).
  static func changed(_ body: Data, rule: FaultRule) -> Data? {
    guard let field = rule.field,
      let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
      let changed = change(json, field: field, action: rule.action, value: rule.value)
    else { return nil }
    return try? JSONSerialization.data(withJSONObject: changed, options: [.sortedKeys, .fragmentsAllowed])
  }

  /// The document with its first `field` changed, or nil when it has none.
  static func change(_ json: Any, field: String, action: FaultRule.Action, value: String?) -> Any? {
    // Breadth first: each entry is the path (keys and indexes) to an object or array.
    var queue: [[PathStep]] = [[]]
    var next = 0
    while next < queue.count {
      let path = queue[next]
      next += 1
      switch node(json, at: path) {
      case let object as [String: Any]:
        if let current = object[field] {
          return replacing(json, at: path) { container in
            guard var object = container as? [String: Any] else { return container }
            switch action {
            case .dropField: object[field] = nil
            case .retypeField: object[field] = (current is String) ? 42 : "42"
            default: object[field] = value ?? ""
            }
            return object
          }
        }
        for key in object.keys.sorted() { queue.append(path + [.key(key)]) }
      case let array as [Any]:
        for index in array.indices { queue.append(path + [.index(index)]) }
      default:
        break
      }
    }
    return nil
  }

  enum PathStep {
    case key(String)
    case index(Int)
  }

  static func node(_ json: Any, at path: [PathStep]) -> Any? {
    var current: Any? = json
    for step in path {
      switch step {
      case .key(let key): current = (current as? [String: Any])?[key]
      case .index(let index):
        guard let array = current as? [Any], array.indices.contains(index) else { return nil }
        current = array[index]
      }
    }
    return current
  }

  /// `json` with the node at `path` replaced by `transform(node)`.
  static func replacing(_ json: Any, at path: [PathStep], _ transform: (Any) -> Any) -> Any {
    guard let step = path.first else { return transform(json) }
    let rest = Array(path.dropFirst())
    switch step {
    case .key(let key):
      guard var object = json as? [String: Any], let child = object[key] else { return json }
      object[key] = replacing(child, at: rest, transform)
      return object
    case .index(let index):
      guard var array = json as? [Any], array.indices.contains(index) else { return json }
      array[index] = replacing(array[index], at: rest, transform)
      return array
    }
  }
}
