@testable import Recording

/// The refresh states the recordings here end frames in, with the names the simulation gives them
/// (`RefreshState.kindNames` in Refresh, handed to the recorder by Lab).
enum RecordedState: UInt8, CaseIterable {
    case idle, pulling, finishingMessage

    var name: String { ["idle", "pulling", "finishing(message)"][Int(rawValue)] }
}

extension FrameRecorder {
    /// Ends the frame in `state`, which the recording names as the simulation does.
    func endFrame(state: RecordedState, effect: String) {
        if stateNames.isEmpty { stateNames = RecordedState.allCases.map(\.name) }
        endFrame(stateCode: state.rawValue, effect: effect)
    }
}
