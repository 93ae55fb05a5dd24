import CSDL2
import Lab
import Raster
import UserFiles

/// The texture one phone's canvas is shown from, made again when the canvas changes size. Shown at half its pixels
/// or fewer (a 3× phone fitted to the display), a half-size copy averaged by `Canvas.halve` is sent instead, a
/// quarter of the bytes, and of it only the rows that changed since the last frame (a header refreshing over a list
/// that stands sends its own band).
final class PhoneTexture {
    private let renderer: OpaquePointer?
    private var texture: OpaquePointer?
    private var size = (width: 0, height: 0)
    private var halfCanvas: Canvas?
    private var halfTexture: OpaquePointer?
    /// Whether the last upload used the half-size copy.
    private var usesHalf = false
    /// Whether the half-size texture was just made: its first upload sends every row, later ones the rows changed.
    private var halfTextureIsNew = false

    init(renderer: OpaquePointer?) {
        self.renderer = renderer
    }

    deinit {
        if let texture { SDL_DestroyTexture(texture) }
        if let halfTexture { SDL_DestroyTexture(halfTexture) }
    }

    private static func makeTexture(_ renderer: OpaquePointer?, width: Int, height: Int) -> OpaquePointer? {
        SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ARGB8888.rawValue, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                          Int32(width), Int32(height))
    }

    /// Sends `canvas`, shown at `zoom` output pixels per canvas pixel; with `isUnchanged` (a phone that kept its
    /// last frame), only when the texture must be made again.
    ///
    /// - Throws: `LabError` when SDL cannot make a texture of its size.
    func upload(_ canvas: Canvas, zoom: Double, isUnchanged: Bool = false) throws {
        let usesHalfNow = zoom <= 0.5 && canvas.width >= 2 && canvas.height >= 2
        if isUnchanged && (canvas.width, canvas.height) == size && usesHalfNow == usesHalf { return }
        if (canvas.width, canvas.height) != size {
            if let texture { SDL_DestroyTexture(texture) }
            texture = PhoneTexture.makeTexture(renderer, width: canvas.width, height: canvas.height)
            guard texture != nil else {
                size = (0, 0)
                throw LabError("cannot create the canvas texture: \(String(cString: SDL_GetError()))")
            }
            size = (canvas.width, canvas.height)
        }
        usesHalf = usesHalfNow && makeHalf(of: canvas)
        guard usesHalf, let halfCanvas else {
            SDL_UpdateTexture(texture, nil, canvas.pixels, Int32(canvas.width * 4))
            return
        }
        let changed = canvas.halve(into: halfCanvas)
        let rows = halfTextureIsNew ? 0..<halfCanvas.height : changed
        halfTextureIsNew = false
        guard !rows.isEmpty else { return }
        var band = SDL_Rect(x: 0, y: Int32(rows.lowerBound), w: Int32(halfCanvas.width), h: Int32(rows.count))
        SDL_UpdateTexture(halfTexture, &band, halfCanvas.pixels + rows.lowerBound * halfCanvas.width,
                          Int32(halfCanvas.width * 4))
    }

    /// Makes the half-size copy and its texture for `canvas`'s size when they are not made yet; false when the
    /// texture cannot be made.
    private func makeHalf(of canvas: Canvas) -> Bool {
        if halfCanvas?.width != canvas.width / 2 || halfCanvas?.height != canvas.height / 2 {
            if let halfTexture { SDL_DestroyTexture(halfTexture) }
            halfCanvas = Canvas(width: canvas.width / 2, height: canvas.height / 2)
            halfTexture = PhoneTexture.makeTexture(renderer, width: canvas.width / 2, height: canvas.height / 2)
            halfTextureIsNew = true
        }
        return halfCanvas != nil && halfTexture != nil
    }

    /// Copies the texture last uploaded into `rect` of the renderer's output.
    func draw(in rect: SDL_Rect) {
        var rect = rect
        SDL_RenderCopy(renderer, usesHalf ? halfTexture : texture, nil, &rect)
    }
}
