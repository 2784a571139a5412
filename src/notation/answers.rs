//! The yes/no questions of a ply and the words that answer them (`x`/`-x`, `relay`/`-relay`, or the
//! rule file's own).

use super::*;

/// The words that answer a yes/no question of a ply: the rule file's own (`may as "safari" or "stop"`), or
/// `relay` and `-relay` for a relay, `x` and `-x` for a capture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnswerWords {
    pub question: Question,
    pub yes: String,
    pub no: String,
    /// The rule file gave the words.
    pub named: bool,
}

/// What a yes/no question of a ply asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Question {
    /// Whether to relay from the last pit (`relay may`).
    Relay,
    /// Whether to make a capture (`capture may`).
    Capture,
}

impl AnswerWords {
    pub fn word(&self, yes: bool) -> &str {
        if yes {
            &self.yes
        } else {
            &self.no
        }
    }

    pub(super) fn of(question: Question, answers: Option<&crate::ir::Answers>) -> AnswerWords {
        let (yes, no) = match question {
            Question::Relay => ("relay", "-relay"),
            Question::Capture => ("x", "-x"),
        };
        match answers {
            Some(a) => AnswerWords { question, yes: a.yes.clone(), no: a.no.clone(), named: true },
            None => AnswerWords { question, yes: yes.into(), no: no.into(), named: false },
        }
    }
}

impl Default for AnswerWords {
    fn default() -> AnswerWords {
        AnswerWords::of(Question::Capture, None)
    }
}

/// The words of the yes/no question the position `st` waits for, or `None` when it asks none.
pub fn answer_words(engine: &Engine, st: &State) -> Option<AnswerWords> {
    match st.stage {
        Stage::Relay { action } => {
            Some(AnswerWords::of(Question::Relay, sow_of(engine, st, action)?.relay_answers.as_ref()))
        }
        Stage::Capture { action, rule } => {
            let rule = sow_of(engine, st, action)?.captures.get(rule as usize)?;
            Some(AnswerWords::of(Question::Capture, rule.answers.as_ref()))
        }
        _ => None,
    }
}

/// A rule file's answer word (`may as "safari" or "stop"`), case aside: which question it answers, and
/// whether it says yes. `check` makes sure a word answers one kind of question only.
pub(super) fn named_answer(engine: &Engine, token: &str) -> Option<(Question, bool)> {
    let sows = engine.rules.phases.iter().flat_map(|p| &p.actions).filter_map(|a| match &a.kind {
        ActionKind::Sow(sow) => Some(sow),
        _ => None,
    });
    for sow in sows {
        let relay = sow.relay_answers.iter().map(|a| (Question::Relay, a));
        let captures = sow.captures.iter().filter_map(|c| c.answers.as_ref()).map(|a| (Question::Capture, a));
        for (question, a) in relay.chain(captures) {
            if a.yes.eq_ignore_ascii_case(token) {
                return Some((question, true));
            }
            if a.no.eq_ignore_ascii_case(token) {
                return Some((question, false));
            }
        }
    }
    None
}
