import Raster
public final class VideoRecording {
    public init(output: String, width: Int, height: Int) throws { throw LabError("video: not yet") }
    public func write(_ canvas: Canvas, at time: Double) throws {}
    public func finish(at time: Double) throws {}
}
