import CJQ
import Foundation

// libFuzzer target: the part of deck's --jq wrapper that runs in deck's own process. The input's
// first line is a program: its compile (JQEngine.compile) and the scan for the known CVEs' shapes
// (JQShapes) must end without a crash, and a program with import or include must never compile.
// The program and the rest of the input go through the filter child's frames (JQFrames) in
// pieces of growing sizes and must come back whole. Runs themselves happen in filter children
// (JQChild, under setrlimit), which this target does not start.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
  let program = String(decoding: bytes[..<newline], as: UTF8.self)
  _ = JQShapes.refusal(program)
  if var compiled = try? JQEngine.compile(program) {
    precondition(!JQProgram.importsModules(program), "a program with import or include compiled")
    jq_teardown(&compiled.jq)
  }
  let texts = [program, String(decoding: bytes[newline...], as: UTF8.self)]
  var stream: [UInt8] = []
  for text in texts { stream += JQFrames.encode(.result, text) }
  stream += JQFrames.encode(.end, "")
  var decoder = JQFrames.Decoder()
  var decoded: [String] = []
  var offset = 0
  var step = 1
  while offset < stream.count {
    let end = min(stream.count, offset + step)
    decoder.append(Array(stream[offset..<end]))
    while let frame = decoder.next() { decoded.append(frame.text) }
    offset = end
    step = step * 3 + 1
  }
  precondition(decoded == texts + [""], "frames did not come back whole")
  return 0
}
