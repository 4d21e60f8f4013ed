import DeckSupport
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The filter child: `deck ---jq-eval --memory BYTES --output BYTES --seconds S`, dispatched
/// before deck parses anything (Sources/Client/deck). It limits itself first (no core file, the CPU
/// time, the address space: `FilterProcess.limitSelf`), then reads the program and the document
/// on stdin and writes the results as frames on stdout (`JQFrames`). A libjq crash, an
/// allocation past the limit or the CPU limit ends this process only; `JQFilter` reports it.
public enum JQChild {
  /// The hidden first argument that runs a filter child.
  public static let flag = "---jq-eval"

  public static func main(arguments: [String]) -> Never {
    var settings: [String: Int] = [:]
    var index = 0
    while index + 1 < arguments.count {
      settings[arguments[index]] = Int(arguments[index + 1])
      index += 2
    }
    let memory = settings["--memory"] ?? JQFilter.Limits.standard.memoryBytes
    let output = settings["--output"] ?? JQFilter.Limits.standard.outputBytes
    let seconds = settings["--seconds"] ?? Int(JQFilter.Limits.standard.seconds)
    FilterProcess.limitSelf(memoryBytes: memory + BigStackThread.stackSize, cpuSeconds: max(1, seconds))
    let writer = Writer()
    let input = readStandardInput()
    let length = input.count >= 4 ? JQFrames.readLittleEndian(input[0..<4]) : -1
    guard length >= 0, input.count >= 4 + length else {
      writer.frame(.end, "the filter's process got no program (deck \(flag) is deck's own; do not run it by hand).")
      writer.flush()
      _exit(0)
    }
    let program = String(decoding: input[4..<(4 + length)], as: UTF8.self)
    let document = Array(input[(4 + length)...])
    let message: String?
    do {
      // Never torn down: the process ends right after, and freeing may be long.
      let compiled = try JQEngine.compile(program)
      message = JQEngine.run(
        compiled, on: document, outputBytes: output, emit: { writer.frame(.result, $0) },
        debug: { writer.frame(.debug, $0) })
    } catch {
      message = error.message
    }
    writer.frame(.end, message ?? "")
    writer.flush()
    _exit(0)
  }

  /// Everything on stdin, to its end.
  private static func readStandardInput() -> [UInt8] {
    var input: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return input }
      input += buffer[..<count]
    }
  }

  /// Frames to stdout, in writes of about 64 KB.
  private final class Writer {
    var pending: [UInt8] = []

    func frame(_ kind: JQFrames.Kind, _ text: String) {
      pending += JQFrames.encode(kind, text)
      if pending.count >= 1 << 16 { flush() }
    }

    func flush() {
      var written = 0
      while written < pending.count {
        let count = pending.withUnsafeBytes { write(1, $0.baseAddress.map { $0 + written }, $0.count - written) }
        if count < 0, errno == EINTR { continue }
        // The parent is gone: nobody reads the rest.
        guard count > 0 else { _exit(0) }
        written += count
      }
      pending.removeAll(keepingCapacity: true)
    }
  }
}
