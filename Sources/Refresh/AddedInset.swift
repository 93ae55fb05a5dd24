import Geometry
import Scrolling

/// The part of one edge of a scroll view's content inset that a control adds (the header's top, a footer's
/// bottom), on top of the scroll view's own (a navigation bar's, a safe area's).
///
/// The base is kept exactly as found: while the scroll view still shows what was last written, the base is the one
/// remembered, so taking the added part back restores it to the last bit; an inset someone else changed becomes
/// the new base. Repeated writes of the same value do nothing, so nothing is ever added twice.
final class AddedInset {
    enum Edge {
        case top
        case bottom
    }

    let edge: Edge
    /// What the control adds right now, in points.
    private(set) var value = 0.0
    /// True while the inset is being written: the control's own observer ignores the change it makes.
    private(set) var isWriting = false
    private var base = 0.0
    private var written = Double.nan

    init(edge: Edge) {
        self.edge = edge
    }

    /// The scroll view's adjusted inset on the edge without the added part: its own inset plus its safe area, where
    /// the content rests when the control adds nothing (docs/reference.md §6).
    func base(of scrollView: ScrollView) -> Double {
        let current = scrollView.contentInset[edge]
        return (current == written ? base : current - value) + scrollView.safeAreaInsets[edge]
    }

    /// Sets the added part to `value` on top of the scroll view's own inset now; with no scroll view it is 0.
    func set(_ value: Double, on scrollView: ScrollView?) {
        guard let scrollView else {
            self.value = 0
            return
        }
        guard value != self.value else { return }
        var inset = scrollView.contentInset
        if inset[edge] != written { base = inset[edge] - self.value }
        inset[edge] = base + value
        written = inset[edge]
        self.value = value
        isWriting = true
        scrollView.contentInset = inset
        isWriting = false
    }
}

private extension EdgeInsets {
    subscript(edge: AddedInset.Edge) -> Double {
        get { edge == .top ? top : bottom }
        set {
            if edge == .top { top = newValue } else { bottom = newValue }
        }
    }
}
