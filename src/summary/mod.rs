//! Lowered rules as text: a summary a player reads (`rules` in the REPL) and a full dump that tests
//! snapshot, so that changes to lowering show up as readable diffs. Conditions print back in the
//! language's own syntax, with names resolved (`store(mover)`, `pits(opponent)`).

mod dump;
mod words;

pub use dump::dump;
pub use words::{goal, summarize, summarize_width};

use crate::ir::*;

/// The name of a region, for printing.
fn region_name(rules: &Rules, id: u16) -> &str {
    rules.regions.get(id as usize).map_or("?", |r| r.name.as_str())
}

fn dir_short(dir: Dir) -> &'static str {
    match dir {
        Dir::Ccw => "ccw",
        Dir::Cw => "cw",
    }
}

fn dir_word(dir: Dir) -> &'static str {
    match dir {
        Dir::Ccw => "counter-clockwise",
        Dir::Cw => "clockwise",
    }
}

fn op_text(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "=",
        CmpOp::Ne => "!=",
        CmpOp::Lt => "<",
        CmpOp::Le => "<=",
        CmpOp::Gt => ">",
        CmpOp::Ge => ">=",
    }
}

fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in text.split_whitespace() {
        if line > 0 && line + 1 + word.len() > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += word.len();
    }
    out
}

/// Why the game ended, for a sweep made only then: ` by a repetition`; nothing for a sweep made always.
fn ending_words(after: Option<Ending>) -> &'static str {
    match after {
        None => "",
        Some(Ending::Repetition) => " by a repetition",
        Some(Ending::Stuck) => " because the player to move cannot move",
        Some(Ending::Limit) => " at the ply limit",
    }
}
