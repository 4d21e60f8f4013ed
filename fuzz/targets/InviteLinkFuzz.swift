import Foundation

// libFuzzer target: the invite-link parser (a pasted join link or a bare token).
// Invariants: nothing traps; a token found is never empty.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  if let token = InviteLink.token(from: text) { precondition(!token.isEmpty) }
  if let token = InviteLink.token(in: text) { precondition(!token.isEmpty) }
  return 0
}
