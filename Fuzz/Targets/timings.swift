import Recording

/// The timings CSV reader that `refreshlab report` uses, on any text: rows, their numbers and their ranges.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    _ = try? TimingRow.parse(String(decoding: input.bytes, as: UTF8.self), path: "fuzz.csv")
    return 0
}
