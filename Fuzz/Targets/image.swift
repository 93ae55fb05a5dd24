import Raster

/// The image decoders (PNG through libpng, JPEG through libjpeg-turbo, WebP through libwebp, told apart by their
/// first bytes, then premultiplication) on any bytes, with a pixel cap small enough that a claimed size is refused
/// before memory is given to it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    _ = try? input.array.withUnsafeBytes { try ImageDecoder.decode($0, name: "fuzz", maxPixels: 1 << 20) }
    return 0
}
