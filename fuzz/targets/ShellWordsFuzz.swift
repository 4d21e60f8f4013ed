import Foundation

// libFuzzer target: the line splitter (ShellWords) and the continuation joiner, as script
// mode and the REPL use them. Invariants: nothing traps; a quoted word splits back to itself;
// a continuation never holds more than its cap.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  _ = ShellWords.split(text)
  _ = ShellWords.partial(text)
  let quoted = ShellWords.quote(text)
  precondition(ShellWords.split(quoted) == .words([text]), "quote does not round-trip")
  var pending = ShellWords.Continuation()
  var number = 0
  for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
    number += 1
    switch pending.add(String(line), number: number) {
    case .words, .more: break
    case .tooLong:
      precondition(!pending.problem.isEmpty)
      pending.reset()
    }
    precondition(pending.isEmpty || pending.firstLine <= number)
  }
  return 0
}
