extension Pixel {
    /// The largest difference of any channel (alpha, red, green, blue) between two stored pixels: how far apart a
    /// picture and its reference are at one place.
    @inlinable
    public static func largestChannelDifference(_ a: UInt32, _ b: UInt32) -> Int {
        var largest = 0
        for shift in stride(from: 0, through: 24, by: 8) {
            let d = abs(Int((a >> UInt32(shift)) & 0xFF) - Int((b >> UInt32(shift)) & 0xFF))
            largest = Swift.max(largest, d)
        }
        return largest
    }

    /// A stored pixel as a light grey for the background of a difference picture: composited over white (so
    /// transparent parts read as paper), turned to its luma, then faded to a third of its contrast, which keeps
    /// the shapes recognisable behind the marks.
    public static func fadedGrey(_ pixel: UInt32) -> Int {
        let a = Int(pixel >> 24)
        let r = Int((pixel >> 16) & 0xFF) + 255 - a
        let g = Int((pixel >> 8) & 0xFF) + 255 - a
        let b = Int(pixel & 0xFF) + 255 - a
        let luma = Swift.min(255, (77 * r + 150 * g + 29 * b + 128) >> 8)
        return 255 - (255 - luma) / 3
    }
}
