import Text

/// True when both fonts the simulator draws with are installed (DejaVu Sans and WenQuanYi Micro Hei, which CI and
/// `scripts/setup.sh` install): tests that draw or measure text are reported as skipped without them, never passed.
public let standardFontsInstalled: Bool = (try? FontSet.standard())?.warnings.isEmpty ?? false
