/// The frame rate of a simulated clock: a headless run steps exactly 1/60 s a frame, and a recording or capture
/// made without a display keeps that rate.
public let simulatedFrameRate = 60.0
