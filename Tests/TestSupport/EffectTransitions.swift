import Refresh

extension RefreshEffect {
    /// A state change at `time` with no finger down and nothing pulled, as a control without a scroll view gives
    /// it: for tests that drive an effect on its own.
    public func transition(from old: RefreshState, to new: RefreshState, at time: Double) {
        transition(from: old, to: new,
                   pull: RefreshPull(distance: 0, progress: 0, isDragging: false, time: time, headerSize: .zero))
    }
}
