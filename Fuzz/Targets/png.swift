import Raster

/// The PNG reader (libpng's simplified API from memory, then premultiplication) on any bytes, with a pixel cap
/// small enough that a claimed size is refused before memory is given to it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    _ = try? input.array.withUnsafeBytes { try PNG.decode($0, name: "fuzz.png", maxPixels: 1 << 20) }
    return 0
}
