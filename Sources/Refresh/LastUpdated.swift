#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A local date and time to the minute: what the last-updated line shows.
public struct RefreshDate: Equatable, Hashable, Sendable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int

    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
    }

    /// The system's local time now.
    public static func current() -> RefreshDate {
        var seconds = time(nil)
        var parts = tm()
        localtime_r(&seconds, &parts)
        return RefreshDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
                           hour: Int(parts.tm_hour), minute: Int(parts.tm_min))
    }

    func twoDigits(_ value: Int) -> String {
        value < 10 && value >= 0 ? "0" + String(value) : String(value)
    }
}

/// The last time each list was refreshed, by key, as MJRefresh keeps it per header class or per key.
///
/// Controls that share a store and a key share their last-updated time; tests give each control its own store.
public final class LastUpdatedStore {
    private var dates: [String: RefreshDate] = [:]

    public init() {}

    public subscript(key: String) -> RefreshDate? {
        get { dates[key] }
        set { dates[key] = newValue }
    }
}
