import Styles

/// An effect whose parameters are a style value, so that style files can change them.
///
/// Setting `style` takes effect on the next frame and keeps the effect's state: a pull or a refresh under way goes
/// on with the new values. The control reads the new metrics once told (`RefreshControl.effectStyleDidChange()`).
public protocol StyledEffect: RefreshEffect {
    associatedtype Style: StyleValue
    var style: Style { get set }
}
