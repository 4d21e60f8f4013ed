import DeckYAML
import Glibc

// libFuzzer target: DeckYAML's reader over libyaml, and its writer. Invariants: nothing traps
// (marks, lengths and aliases come from the text), and whatever the reader accepts, the writer
// prints as a document the reader accepts again, as the same tree.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  guard let node = try? YAMLNode.compose(yaml: text, nodeLimit: 100_000) else { return 0 }
  _ = node.resolved
  let written = YAMLWriter.document(node)
  do {
    // The document reads back as the same tree: written again, it is the same text.
    let back = try YAMLNode.compose(yaml: written)
    let again = back.map(YAMLWriter.document) ?? ""
    if again != written {
      let message = "CHANGED:\n<<<\n\(written)>>>\n<<<\n\(again)>>>\n"
      _ = message.withCString { write(2, $0, strlen($0)) }
      preconditionFailure("the writer's document reads back as another tree")
    }
  } catch {
    // Printed first: preconditionFailure's message is lost when libFuzzer catches the trap.
    let message = "FAILED: \(error)\n<<<\n\(written)>>>\n"
    _ = message.withCString { write(2, $0, strlen($0)) }
    preconditionFailure("the writer's document does not read back (\(error)):\n\(written)")
  }
  return 0
}
