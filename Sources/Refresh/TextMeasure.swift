import Synchronization
import Text

/// Widths of one-line texts as text layers draw them with the standard fonts, for effects that lay out around a
/// text: the classic arrow left of its lines, the news icon and label centred as one group.
///
/// The fonts are loaded once per weight and shared by every effect; a width is 0 when no font loads (text layers
/// then draw nothing either).
enum TextMeasure {
    private static let fonts = Mutex<[FontWeight: FontSet]>([:])
    private static let failed = Atomic<Bool>(false)

    /// The width of `text` at `size` points in `weight`, in points.
    static func width(of text: String, size: Double, weight: FontWeight = .regular) -> Double {
        guard !failed.load(ordering: .relaxed) else { return 0 }
        return fonts.withLock { fonts -> Double in
            if fonts[weight] == nil {
                fonts[weight] = try? FontSet.standard(weight: weight)
                if fonts[weight] == nil { failed.store(true, ordering: .relaxed) }
            }
            guard let set = fonts[weight] else { return 0 }
            return TextLine(text, fonts: set, size: size).width
        }
    }
}
