import Synchronization

/// The effects the lab can show, by name.
///
/// A new effect is one file implementing `RefreshEffect` plus one line in `builtIn`; an app or a test can also
/// add its own with `register(name:make:)`.
public enum RefreshEffects {
    /// Makes a fresh effect; every control gets its own layers.
    public typealias Maker = @Sendable () -> any RefreshEffect

    /// The effects that come with the lab, in the order the keyboard cycles through them.
    public static let builtIn: [(name: String, make: Maker)] = [
        ("sticky", { StickyEffect() }),
        ("dots", { DotsEffect() }),
        ("ring", { RingEffect() }),
        ("news", { NewsEffect() }),
        ("classic", { ClassicEffect() }),
    ]

    private static let registered = Mutex<[(name: String, make: Maker)]>([])

    /// Adds an effect under `name`, or replaces the one registered under it.
    public static func register(name: String, make: @escaping Maker) {
        registered.withLock { list in
            if let i = list.firstIndex(where: { $0.name == name }) {
                list[i].make = make
            } else {
                list.append((name, make))
            }
        }
    }

    /// Every name, built-in first, then registered ones in the order of registration.
    public static var names: [String] {
        let extra = registered.withLock { list in list.map(\.name) }
        return builtIn.map(\.name) + extra.filter { name in !builtIn.contains { $0.name == name } }
    }

    /// A new effect of that name (a registered one before a built-in one of the same name), or nil.
    public static func make(_ name: String) -> (any RefreshEffect)? {
        if let maker = registered.withLock({ list in list.first { $0.name == name }?.make }) {
            return maker()
        }
        return builtIn.first { $0.name == name }?.make()
    }
}
