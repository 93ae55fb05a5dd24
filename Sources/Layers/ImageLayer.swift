import Geometry
import Raster

/// A layer that shows a bitmap stretched over its bounds, as a `CALayer` whose `contents` is an image with the
/// default `contentsGravity` (resize) and bilinear filtering. Whoever sets the bounds chooses how the image fits
/// (an image-sequence header sizes the layer to the image's aspect).
open class ImageLayer: Layer {
    /// The picture shown, premultiplied; nil draws nothing.
    public var image: Bitmap?

    open override func draw(in context: LayerDrawingContext) {
        guard let image else { return }
        let box = presentation(at: context.time).bounds
        guard box.width > 0, box.height > 0 else { return }
        context.draw(image, in: box)
    }

    open override func contentBounds(at time: Double) -> Rect? {
        image == nil ? nil : presentation(at: time).bounds
    }

    open override var contentPrimitiveCount: Int { image == nil ? 0 : 1 }
}

extension LayerDrawingContext {
    /// Draws `image` stretched over `rect` (layer coordinates), filtered bilinearly.
    public func draw(_ image: Bitmap, in rect: Rect) {
        if let recording {
            recording.refuse("images")
            return
        }
        let toLayer = AffineTransform(scaleX: rect.width / Double(image.width), y: rect.height / Double(image.height))
            .concatenating(AffineTransform(translationX: rect.minX, y: rect.minY))
        canvas.draw(image, transform: toLayer.concatenating(transform), opacity: opacity,
                    clip: PixelBox(covering: clip), alphaOnly: isMask)
    }
}
