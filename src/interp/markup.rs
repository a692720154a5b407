//! Text in the SVG charts the simulators draw.

/// `text` as SVG (XML) character data.
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
