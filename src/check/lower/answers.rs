//! The words of a `may` choice (`relay may as "safari" or "stop"`, `capture may as "tuzdyk"`): one word
//! each, which the notation writes in plies and a person types at the prompt, so none may read as
//! something else there (a place, a notation token, a command, `yes` or `no`), and a word answers one kind
//! of question only.

use crate::ast::{self, Span};
use crate::ir::{Answers, RESERVED_ANSWERS};

use super::Lowerer;

/// The longest answer, in characters: a word, not a sentence.
const MAX_ANSWER_CHARS: usize = 24;

/// Which question the words answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Answering {
    Relay,
    Capture,
}

impl Answering {
    fn question(self) -> &'static str {
        match self {
            Answering::Relay => "an optional relay",
            Answering::Capture => "an optional capture",
        }
    }
}

impl Lowerer<'_> {
    /// The answers as the engine's front ends use them, `-YES` for a missing no; each word checked.
    pub(super) fn lower_answers(&mut self, answers: &ast::Answers, question: Answering) -> Answers {
        let yes = answers.yes.node.clone();
        let no = answers.no.as_ref().map_or_else(|| format!("-{yes}"), |n| n.node.clone());
        self.check_answer(&yes, answers.yes.span, question);
        if let Some(n) = &answers.no {
            self.check_answer(&n.node, n.span, question);
            if n.node.eq_ignore_ascii_case(&yes) {
                self.error(
                    "check::answers",
                    "the two answers are the same word",
                    n.span,
                    "the same as the first",
                    Some("the first word says yes, the second no: give them different words".into()),
                );
            }
        }
        Answers { yes, no }
    }

    fn check_answer(&mut self, word: &str, span: Span, question: Answering) {
        let lower = word.to_ascii_lowercase();
        let body = word.strip_prefix('-').unwrap_or(word);
        let one_word = body.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && body.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            && word.chars().count() <= MAX_ANSWER_CHARS;
        let problem = if !one_word {
            Some((
                "an answer is one word".to_string(),
                format!(
                    "letters, digits, `-` and `_`, starting with a letter (at most {MAX_ANSWER_CHARS}), e.g. `as \"safari\" or \"stop\"`"
                ),
            ))
        } else if RESERVED_ANSWERS.contains(&lower.as_str()) {
            Some((
                format!("`{word}` cannot be an answer: the notation or the prompt reads it already"),
                "choose another word; `yes` and `no` are understood anyway".to_string(),
            ))
        } else if self.labels.keys().any(|l| l.eq_ignore_ascii_case(word)) {
            Some((format!("`{word}` is a place on this board"), "choose a word that names no place".to_string()))
        } else {
            None
        };
        if let Some((message, help)) = problem {
            self.error("check::answers", message, span, "this answer", Some(help));
            return;
        }
        let other = self.answer_words.iter().find(|(w, q, _)| w.eq_ignore_ascii_case(word) && *q != question);
        if let Some(&(_, q, first)) = other {
            let d = crate::diag::Diagnostic::error(
                "check::answers",
                format!("`{word}` answers {} already", q.question()),
                span,
                format!("here it answers {}", question.question()),
            )
            .with_related(first, "first used here")
            .with_help("a word answers one kind of question: choose another");
            self.push(d);
            return;
        }
        self.answer_words.push((word.to_string(), question, span));
    }
}
