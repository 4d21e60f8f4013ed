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
    let again = try YAMLNode.compose(yaml: written).map(YAMLWriter.document) ?? ""
    if again != written { fail("CHANGED: the writer's document reads back as another tree", written, again) }
  } catch {
    fail("FAILED: the writer's document does not read back (\(error))", written)
  }
  return 0
}

/// Prints the finding, then traps: preconditionFailure's own message is lost when libFuzzer
/// catches the trap, so the documents go to stderr first.
func fail(_ finding: String, _ documents: String...) -> Never {
  let message = finding + "\n" + documents.map { "<<<\n\($0)>>>\n" }.joined()
  _ = message.withCString { write(2, $0, strlen($0)) }
  preconditionFailure(finding)
}
