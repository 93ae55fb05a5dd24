extension Canvas {
    /// Writes into `half` this canvas at half its size, each pixel the rounded mean of a 2×2 block, channel by
    /// channel (premultiplied pixels average as they are). An odd last column or row is left out.
    ///
    /// Why: the window shows a 3× phone at about two fifths of its pixels; averaging first sends a quarter of the
    /// pixels to the display (the upload was the largest cost of a window frame) and leaves the display's own
    /// linear scaling a factor it does not alias at.
    ///
    /// Returns the rows of `half` whose pixels changed (empty when none did), so that only those need sending on.
    @discardableResult
    public func halve(into half: Canvas) -> Range<Int> {
        precondition(half.width == width / 2 && half.height == height / 2,
                     "a half canvas of \(width / 2)×\(height / 2) is needed, not \(half.width)×\(half.height)")
        let out = half.pixels, w = width
        var first = half.height, end = 0
        for y in 0..<half.height {
            let top = pixels + 2 * y * w, bottom = top + w, row = out + y * half.width
            var changed: UInt32 = 0
            for x in 0..<half.width {
                let a = top[2 * x], b = top[2 * x + 1], c = bottom[2 * x], d = bottom[2 * x + 1]
                // Two channels at a time, 16 bits apart: four values of at most 255 and the rounding 2 fit.
                let rb = (a & 0x00FF_00FF) &+ (b & 0x00FF_00FF) &+ (c & 0x00FF_00FF) &+ (d & 0x00FF_00FF) &+ 0x0002_0002
                let ag = (a >> 8 & 0x00FF_00FF) &+ (b >> 8 & 0x00FF_00FF) &+ (c >> 8 & 0x00FF_00FF)
                    &+ (d >> 8 & 0x00FF_00FF) &+ 0x0002_0002
                let mean = (rb >> 2 & 0x00FF_00FF) | (ag >> 2 & 0x00FF_00FF) << 8
                changed |= mean ^ row[x]
                row[x] = mean
            }
            if changed != 0 {
                first = Swift.min(first, y)
                end = y + 1
            }
        }
        return first < end ? first..<end : 0..<0
    }
}
