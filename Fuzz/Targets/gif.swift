import Raster

/// The GIF decoder (giflib, then our compositing of its records: disposal, transparency, interlace, palettes) on
/// any bytes, from memory as from a file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    _ = try? GIF.decode(input.array, name: "fuzz.gif")
    return 0
}
