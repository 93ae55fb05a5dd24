import Recording
import Refresh

extension FrameRecorder {
    /// Ends the frame with the refresh control's state, named in the recording as `RefreshState.kindNames` does.
    func endFrame(state: RefreshState, effect: String) {
        if stateNames.isEmpty { stateNames = RefreshState.kindNames }
        endFrame(stateCode: state.kindCode, effect: effect)
    }
}
