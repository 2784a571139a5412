//! The page's files, built into the binary so that `cargo install` gives a working playground. The
//! editor's bundle (`web/assets/editor.js`) is made by `web/build.sh` from pinned npm packages and
//! committed, so building the crate needs no Node.

use super::Reply;

/// Each file the page loads, by name under `/assets/`, with its type.
const FILES: &[(&str, &str, &str)] = &[
    ("app.js", "text/javascript; charset=utf-8", include_str!("../../web/assets/app.js")),
    ("board.js", "text/javascript; charset=utf-8", include_str!("../../web/assets/board.js")),
    ("editor.js", "text/javascript; charset=utf-8", include_str!("../../web/assets/editor.js")),
    ("style.css", "text/css; charset=utf-8", include_str!("../../web/assets/style.css")),
    ("icon.svg", "image/svg+xml", include_str!("../../web/assets/icon.svg")),
];

const PAGE: &str = include_str!("../../web/assets/index.html");

/// The playground's page.
pub fn page() -> Reply {
    Reply { status: 200, content_type: "text/html; charset=utf-8", body: PAGE.as_bytes().to_vec() }
}

/// A file of the page by its name; `None` for any other name (there is no path to follow).
pub fn file(name: &str) -> Option<Reply> {
    FILES.iter().find(|(n, _, _)| *n == name).map(|(_, content_type, text)| Reply {
        status: 200,
        content_type,
        body: text.as_bytes().to_vec(),
    })
}

/// The words of the language, for the editor's highlighting: every word of `keywords`, which tests hold to
/// the grammar.
pub fn keywords() -> Vec<&'static str> {
    crate::keywords::KEYWORDS.iter().map(|k| k.word).collect()
}
