import Testing
@testable import Lab
import Refresh

/// The names a frame recording gives the refresh control's states (`FrameRecorder.endFrame(state:effect:)`).
@Suite("Recorded states")
struct RecordedStatesTests {
    @Test("state codes name every refresh state")
    func states() {
        #expect(RefreshState.kindNames[Int(RefreshState.armed.kindCode)] == "armed")
        #expect(RefreshState.kindNames[Int(RefreshState.finishing(.failure).kindCode)] == "finishing(failure)")
        #expect(RefreshState.kindNames[Int(RefreshState.noMoreData.kindCode)] == "noMoreData")
    }
}
