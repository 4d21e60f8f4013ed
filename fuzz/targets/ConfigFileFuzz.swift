import DeckSupport

// libFuzzer target: the config file loader. Invariants: nothing traps; any file deck accepts
// renders to a file that parses back to the same configuration (deck rewrites config.yml).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  guard let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self) else { return 0 }
  guard let file = try? ConfigFile.parse(text, path: "config.yml") else { return 0 }
  let rendered = file.render()
  guard let again = try? ConfigFile.parse(rendered, path: "config.yml") else {
    preconditionFailure("a config deck accepted does not parse after a rewrite:\n\(rendered)")
  }
  precondition(again == file, "a rewrite changed the configuration:\n\(rendered)")
  return 0
}
