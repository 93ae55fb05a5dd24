import UserFiles

/// The number at `key` of a JSON object (a timings summary), or at `key`.`inner`.
public func timingJSONNumber(_ value: JSONValue, _ key: String, _ inner: String? = nil) -> Double? {
    guard case .object(let fields) = value, let field = fields.first(where: { $0.key == key })?.value else { return nil }
    if let inner { return timingJSONNumber(field, inner) }
    if case .number(let n) = field { return n }
    return nil
}

/// A timings CSV that the report's tests and the commands' tests share.
public enum TimingFixtures {
    /// Four frames, budget 10 ms: 2 + 3 ms, 10 ms, 15 ms and 40 ms of CPU time.
    public static let csv = """
        frame,time_s,interval_ms,input_ms,update_ms,draw_ms,upload_ms,present_ms,output_ms,cpu_ms,state,effect,dropped,idle
        0,0.000000,10.000,2.000,0.000,3.000,0.000,0.000,7.000,5.000,idle,sticky,0,0
        1,0.010000,10.000,0.000,4.000,6.000,0.000,0.000,0.000,10.000,pulling,sticky,0,0
        2,0.020000,10.000,0.000,0.000,10.000,0.000,5.000,0.000,15.000,armed,sticky,0,0
        3,0.030000,30.000,0.000,0.000,40.000,0.000,0.000,0.000,40.000,refreshing,sticky,2,0

        """
}
