import CPangoCairo

/// Text drawn with Pango on a canvas's cairo context: one `PangoLayout` reused for every
/// string. Fonts are chosen by fontconfig from a family name (`Noto Sans CJK JP`, Debian
/// fonts-noto-cjk), never from a file path; when the family is missing fontconfig substitutes
/// its nearest match. Sizes are logical pixels. Not thread-safe.
final class TextLayout {
    /// The family every label uses.
    static let family = "Noto Sans CJK JP"
    private let layout: OpaquePointer
    private let cr: OpaquePointer
    private var cache: [String: (w: Double, h: Double)] = [:]
    private var font = ""

    init(canvas: Canvas) {
        cr = canvas.cr
        layout = pango_cairo_create_layout(cr)
    }

    deinit { eki_pango_layout_free(layout) }

    /// Selects `Noto Sans CJK JP [Bold] SIZEpx`.
    func setFont(size: Double, bold: Bool = false) {
        let name = "\(Self.family)\(bold ? " Bold" : "") \(size)px"
        guard name != font else { return }
        font = name
        cache.removeAll(keepingCapacity: true)
        let d = pango_font_description_from_string(name)
        pango_layout_set_font_description(layout, d)
        pango_font_description_free(d)
    }

    /// Wraps text at `width` logical pixels (words, else characters); nil for one line.
    func setWrap(width: Double?) {
        cache.removeAll(keepingCapacity: true)
        pango_layout_set_width(layout, width.map { Int32($0 * Double(PANGO_SCALE)) } ?? -1)
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
    }

    /// The logical size of `text` in the current font (logical pixels), cached per string.
    func size(_ text: String) -> (w: Double, h: Double) {
        if let s = cache[text] { return s }
        pango_layout_set_text(layout, text, -1)
        var w: Int32 = 0, h: Int32 = 0
        pango_layout_get_size(layout, &w, &h)
        let s = (Double(w) / Double(PANGO_SCALE), Double(h) / Double(PANGO_SCALE))
        cache[text] = s
        return s
    }

    /// How many characters of `text` the current font (and fontconfig's fallbacks) has no glyph
    /// for (drawn as boxes): 0 when the CJK font is installed.
    func unknownGlyphs(_ text: String) -> Int {
        pango_layout_set_text(layout, text, -1)
        return Int(pango_layout_get_unknown_glyphs_count(layout))
    }

    /// Draws `text` with its top-left corner at (x, y) in the colour set on the context.
    func draw(_ text: String, x: Double, y: Double) {
        pango_layout_set_text(layout, text, -1)
        cairo_move_to(cr, x, y)
        pango_cairo_show_layout(cr, layout)
    }
}
