import Styles
import Synchronization

/// The effects the lab can show, by name, with what its keys and help say of each.
///
/// A new effect is one file implementing `RefreshEffect` and one `register(name:title:make:)` call; nothing else
/// names it. The lab gives keys 1…9 to the effects in the order of `entries`: the built-in ones, then the
/// registered ones in the order of registration.
public enum RefreshEffects {
    /// Makes a fresh effect; every control gets its own layers.
    public typealias Maker = @Sendable () -> any RefreshEffect

    /// One effect: its name (`--effect`, scripts, the window's title), its line in the help, and its maker.
    public struct Entry: Sendable {
        public var name: String
        /// What the help and the key table say of the effect, as "sticky header (QQ)".
        public var title: LocalizedText
        public var make: Maker

        public init(name: String, title: LocalizedText, make: @escaping Maker) {
            self.name = name
            self.title = title
            self.make = make
        }
    }

    /// The effects that come with the lab, in the order the keyboard cycles through them.
    static let builtIn: [Entry] = [
        Entry(name: "sticky", title: LocalizedText(english: "sticky header (QQ)", chinese: "粘性头部（QQ）")) {
            StickyEffect()
        },
        Entry(name: "dots", title: LocalizedText(english: "four-dot header", chinese: "四点头部")) { DotsEffect() },
        Entry(name: "ring", title: LocalizedText(english: "ring header (Qidian)", chinese: "圆环头部（起点）")) {
            RingEffect()
        },
        Entry(name: "news", title: LocalizedText(english: "news header (NetEase)", chinese: "新闻头部（网易）")) {
            NewsEffect()
        },
        Entry(name: "classic", title: LocalizedText(english: "classic header (MJRefresh)",
                                                    chinese: "经典头部（MJRefresh）")) { ClassicEffect() },
        // The two made without their animation: the lab gives each the file of `--animation`, or its default one.
        Entry(name: "gif", title: LocalizedText(english: "gif header (MJRefresh)", chinese: "动图头部（MJRefresh）")) {
            GifEffect()
        },
        Entry(name: "lottie", title: LocalizedText(english: "Lottie animation header", chinese: "Lottie 动画头部")) {
            LottieEffect()
        },
        Entry(name: "system", title: LocalizedText(english: "system header (UIRefreshControl)",
                                                   chinese: "系统头部（UIRefreshControl）")) { SystemEffect() },
        Entry(name: "swipe-refresh", title: LocalizedText(english: "swipe-refresh (Android)",
                                                          chinese: "下拉刷新（Android）")) { SwipeRefreshEffect() },
        Entry(name: "material3", title: LocalizedText(english: "Material 3 (Compose)", chinese: "Material 3（Compose）")) {
            Material3Effect()
        },
    ]

    /// The registered effects, and how many registrations there have been.
    private static let registered = Mutex<(entries: [Entry], revision: Int)>(([], 0))

    /// Adds an effect under `name`, or replaces the one registered under it (a built-in one included, which keeps
    /// its place in the order).
    public static func register(name: String, title: LocalizedText, make: @escaping Maker) {
        registered.withLock { state in
            let entry = Entry(name: name, title: title, make: make)
            if let i = state.entries.firstIndex(where: { $0.name == name }) {
                state.entries[i] = entry
            } else {
                state.entries.append(entry)
            }
            state.revision += 1
        }
    }

    /// Changes with every registration: what was made from `entries` (a help's layout) is stale when it differs.
    public static var revision: Int { registered.withLock { $0.revision } }

    /// Every effect once, in the keyboard's order: built-in first, then registered ones in the order of
    /// registration; a registered effect under a built-in name takes that one's place.
    public static var entries: [Entry] {
        let extra = registered.withLock { $0.entries }
        let replaced = builtIn.map { entry in extra.first { $0.name == entry.name } ?? entry }
        return replaced + extra.filter { entry in !builtIn.contains { $0.name == entry.name } }
    }

    /// Every name, in the order of `entries`.
    public static var names: [String] { entries.map(\.name) }
    /// The names of the effects RefreshLab comes with, in the keyboard's order (without any registered later).
    public static var builtInNames: [String] { builtIn.map(\.name) }

    /// A new effect of that name (a registered one before a built-in one of the same name), or nil.
    public static func make(_ name: String) -> (any RefreshEffect)? {
        entries.first { $0.name == name }?.make()
    }
}
