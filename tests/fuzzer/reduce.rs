//! A delta-debugging reducer: drops items, then runs of tokens, then comments, for as long as the input
//! still shows the same finding.

use super::mutate::{items, render, tokenize, Token};

/// The smallest input found that `keeps` still holds for, within `max_tries` calls of `keeps`.
pub fn reduce(input: &[u8], mut keeps: impl FnMut(&[u8]) -> bool, max_tries: usize) -> Vec<u8> {
    let mut tries = 0usize;
    let mut test = |bytes: &[u8]| {
        tries += 1;
        tries <= max_tries && keeps(bytes)
    };
    let text = String::from_utf8_lossy(input).into_owned();
    let (mut tokens, tail) = tokenize(&text);
    if !test(render(&tokens, &tail).as_bytes()) {
        return reduce_bytes(input.to_vec(), &mut test);
    }
    let mut tail = tail;
    if test(render(&tokens, "").as_bytes()) {
        tail.clear();
    }
    loop {
        let before = tokens.len();
        drop_items(&mut tokens, &tail, &mut test);
        drop_runs(&mut tokens, &tail, &mut test);
        if tokens.len() == before {
            break;
        }
    }
    let plain = plain_layout(&tokens);
    if test(render(&plain, &tail).as_bytes()) {
        tokens = plain;
    }
    reduce_bytes(render(&tokens, &tail).into_bytes(), &mut test)
}

/// Tries to drop each item, largest first.
fn drop_items(tokens: &mut Vec<Token>, tail: &str, test: &mut impl FnMut(&[u8]) -> bool) {
    let mut progress = true;
    while progress {
        progress = false;
        let mut it = items(tokens);
        it.sort_by_key(|i| std::cmp::Reverse(i.end - i.start));
        for item in it {
            let mut candidate = tokens.clone();
            candidate.drain(item.start..item.end);
            if test(render(&candidate, tail).as_bytes()) {
                *tokens = candidate;
                progress = true;
                break;
            }
        }
    }
}

/// Tries to drop runs of tokens, halving the run length down to one token.
fn drop_runs(tokens: &mut Vec<Token>, tail: &str, test: &mut impl FnMut(&[u8]) -> bool) {
    let mut chunk = (tokens.len() / 2).max(1);
    loop {
        let mut i = 0;
        while i < tokens.len() {
            let end = (i + chunk).min(tokens.len());
            let mut candidate = tokens.clone();
            candidate.drain(i..end);
            if test(render(&candidate, tail).as_bytes()) {
                *tokens = candidate;
            } else {
                i += chunk;
            }
        }
        if chunk == 1 {
            break;
        }
        chunk /= 2;
    }
}

/// The tokens without comments, one item a line, indented by depth.
pub fn plain_layout(tokens: &[Token]) -> Vec<Token> {
    let mut depth = 0usize;
    tokens
        .iter()
        .enumerate()
        .map(|(i, t)| {
            if t.text == "}" {
                depth = depth.saturating_sub(1);
            }
            let pre = if i == 0 {
                String::new()
            } else if t.line_start() {
                format!("\n{}", "  ".repeat(depth))
            } else if t.pre.is_empty() {
                String::new()
            } else {
                " ".to_string()
            };
            if t.text == "{" {
                depth += 1;
            }
            Token { pre, text: t.text.clone(), kind: t.kind }
        })
        .collect()
}

/// Byte-level delta debugging, for what tokens cannot cut (a long word, a bad byte).
fn reduce_bytes(mut bytes: Vec<u8>, test: &mut impl FnMut(&[u8]) -> bool) -> Vec<u8> {
    let mut chunk = (bytes.len() / 2).max(1);
    loop {
        let mut i = 0;
        while i < bytes.len() {
            let end = (i + chunk).min(bytes.len());
            let mut candidate = bytes.clone();
            candidate.drain(i..end);
            if test(&candidate) {
                bytes = candidate;
            } else {
                i += chunk;
            }
        }
        if chunk == 1 {
            break;
        }
        chunk /= 2;
    }
    bytes
}
