import Foundation

// libFuzzer target: deck's --jq wrapper (JQFilter over libjq). The input's first line is the
// program, the rest the JSON document (a fixed one when it is not JSON). A run must end (a
// result or an error) within its limits, and the filter must run again after it, as the REPL
// and scripts reuse nothing but would run the next line in the same process.

let fallback = Data(#"{"name":"=HYPERLINK(1)","items":[1,-2,"x",{"deep":[null,true]}],"n":3.5}"#.utf8)
let limits = JQFilter.Limits(outputBytes: 1 << 16, memoryBytes: 128 << 20, seconds: 0.5)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
  let program = String(decoding: bytes[..<newline], as: UTF8.self)
  let rest = newline < bytes.endIndex ? Data(bytes[(newline + 1)...]) : Data()
  let document = (try? JSONSerialization.jsonObject(with: rest, options: [.fragmentsAllowed])) != nil ? rest : fallback
  let filter: JQFilter
  do {
    filter = try JQFilter(program, limits: limits)
  } catch {
    return 0
  }
  precondition(!JQProgram.importsModules(program), "a program with import or include compiled")
  for _ in 0..<2 {
    var printed = 0
    _ = filter.run(document, emit: { printed += $0.utf8.count + 1 }, debug: { printed += $0.utf8.count + 1 })
    precondition(printed <= limits.outputBytes, "a run printed more than its limit")
  }
  return 0
}
