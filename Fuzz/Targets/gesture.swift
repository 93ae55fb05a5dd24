import Lab

/// The gesture-script reader on any bytes, then the script it accepted laid out on frames and replayed for its
/// first frames (states only, nothing drawn), so that whatever it accepts can run.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    guard let script = try? GestureScript(json: input.array, file: "fuzz.json") else { return 0 }
    var actions = ScriptTimeline(script).makeIterator()
    for _ in 0..<10_000 where actions.next() == nil { break }
    // An unknown effect is refused with a message; that is not a finding.
    guard let replay = try? ScriptReplay(script: script) else { return 0 }
    for _ in 0..<240 where !replay.advance() { break }
    return 0
}
