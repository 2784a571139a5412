//! What the playground's editor asks besides `check`: the hover and the completions at a point of the text,
//! answered by `ide` as the language server answers an editor. Offsets are bytes of the text's UTF-8, as
//! the diagnostics' are.

use serde::Deserialize;
use serde_json::{json, Value};

use super::Reply;
use crate::ide::Analysis;

/// `POST /api/hover` and `POST /api/complete`: the text and a byte offset in it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AtOffset {
    text: String,
    offset: usize,
}

/// `{"hover": {"start", "end", "markdown"}}`, or `{"hover": null}` where there is nothing to say.
pub(super) fn hover(at: AtOffset) -> Reply {
    let hover = Analysis::new(&at.text).hover(at.offset);
    Reply::ok(
        json!({ "hover": hover.map(|h| json!({ "start": h.span.start, "end": h.span.end, "markdown": h.markdown })) }),
    )
}

/// `{"start", "end", "items": [{"label", "kind", "detail", "documentation"}]}`: the span of the word being
/// typed, which a chosen item replaces, and what may be written there.
pub(super) fn complete(at: AtOffset) -> Reply {
    let completions = Analysis::new(&at.text).completions(at.offset);
    let items: Value = serde_json::to_value(&completions.items).unwrap_or_default();
    Reply::ok(json!({ "start": completions.span.start, "end": completions.span.end, "items": items }))
}
