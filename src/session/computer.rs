//! Help from the computer: its moves in the seats it plays, and hints.

use super::*;

/// How far a solitaire's `hint` searches before it gives its best guess.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HintLimits {
    pub time: Duration,
    /// The search's other bounds (positions, memory); its deadline is set from `time`.
    pub search: crate::solve::SolveOptions,
}

impl Default for HintLimits {
    fn default() -> HintLimits {
        HintLimits {
            time: Duration::from_secs(5),
            search: crate::solve::SolveOptions { max_bytes: 256 << 20, ..crate::solve::SolveOptions::default() },
        }
    }
}

impl Session {
    // ------------------------------------------------------------ help from the computer

    /// What the computer would play here, at `level` (normal by default), and what it does, in words: the
    /// same answer for the same position, as the search is seeded by the position. A solitaire without a
    /// level is searched for a win instead.
    pub(super) fn hint(&mut self, level: Option<crate::ai::Level>) -> Result<String, SessionError> {
        if self.is_over() {
            return Err(SessionError::GameOver);
        }
        if self.engine.rules.players == 1 && self.partial.is_empty() && level.is_none() {
            return self.solve_hint();
        }
        let level = level.unwrap_or(crate::ai::Level::Normal);
        let first = self.hint_move_at(&self.state, level)?;
        let label = self.label(first);
        // The rest of the ply as the computer would play it, to say what the whole ply does.
        let start = self.partial_start.clone().unwrap_or_else(|| self.state.clone());
        let mut moves = self.partial.clone();
        let mut st = self.state.clone();
        let mut next = Some(first);
        while let Some(mv) = next.take() {
            self.engine.apply(&mut st, mv).map_err(|e| SessionError::Illegal(e.to_string()))?;
            moves.push(mv);
            if st.ply == start.ply && st.result.is_none() {
                next = Some(self.hint_move_at(&st, level)?);
            }
        }
        let told = crate::narrate::ply(&self.engine, &start, &moves, &st, &self.seat_names()).text;
        let what = if self.partial.is_empty() { self.typed_ply(&moves) } else { label };
        Ok(format!("hint ({}): {what} — {told}", level.name()))
    }

    /// A solitaire's hint: the first ply of a shortest win, within the hint's limits; when the search
    /// stops first, the most promising ply it found (or the computer player's choice).
    pub(super) fn solve_hint(&mut self) -> Result<String, SessionError> {
        let options = crate::solve::SolveOptions {
            deadline: Some(std::time::Instant::now() + self.hint_limits.time),
            // A fifth of the time for a shorter line than the first found: the hint's line is one to follow.
            shorten: crate::solve::Shorten::For(self.hint_limits.time / 5),
            symmetry: crate::solve::Symmetry::Ring,
            ..self.hint_limits.search
        };
        let cancel = self.cancel.clone();
        let mut progress = self.progress.take();
        let result = {
            let mut report = |p: crate::solve::Progress| {
                if let Some(f) = progress.as_mut() {
                    f(&format!(
                        "searching: {} positions, {} MiB, {:.1} s (Ctrl-C stops)",
                        p.states,
                        p.bytes >> 20,
                        p.elapsed.as_secs_f64()
                    ));
                }
            };
            let watch = crate::solve::Watch { cancel: Some(&cancel), progress: Some(&mut report) };
            crate::solve::solve_watched(&self.engine, &self.state, &options, watch)
        };
        self.progress = progress;
        let states = crate::plural(result.states as u64, "position", "positions");
        Ok(match (&result.verdict, result.line()) {
            (_, Some([])) => "the goal is already reached".into(),
            (_, Some(line)) => {
                let first = self.typed_ply(&line[0]);
                let plies = crate::plural(line.len() as u64, "ply", "plies");
                format!("play {first} ({plies} to win; {states} searched)")
            }
            (crate::solve::Verdict::Unsolvable, _) => {
                let back = match self.last_winnable(&options) {
                    Some(0) => "; none of the positions played could be won".to_string(),
                    Some(ply) => format!("; the last winnable position was before ply {ply} (`undo` goes back)"),
                    None => String::new(),
                };
                format!("no line wins from here ({states} searched){back}")
            }
            _ => {
                let why = result.limit.map_or_else(|| "it stopped".to_string(), |l| l.describe(&options));
                let advice = match &result.best {
                    Some(ply) => format!(
                        "the most promising move found is {} (it leads closest to the goal)",
                        self.typed_ply(ply)
                    ),
                    None => {
                        let mv = self.hint_move()?;
                        format!("the computer would choose {}", self.label(mv))
                    }
                };
                format!("no win found yet: the search stopped after {states}, as {why}; {advice}")
            }
        })
    }

    /// After a mistake: the number (from 1) of the last ply played from a position that could still be won,
    /// 0 when none could, or `None` when the search could not tell within the hint's time.
    fn last_winnable(&self, options: &crate::solve::SolveOptions) -> Option<usize> {
        let options = crate::solve::SolveOptions { shorten: crate::solve::Shorten::No, ..*options };
        for (i, record) in self.plies.iter().enumerate().rev() {
            let r = crate::solve::solve_with(&self.engine, &record.before, &options);
            match r.verdict {
                crate::solve::Verdict::Solved(_) => return Some(i + 1),
                crate::solve::Verdict::Unsolvable => {}
                crate::solve::Verdict::Unknown => return None,
            }
        }
        Some(0)
    }

    /// A ply from the current position as a person types it: in notation, with `take none` where the
    /// notation's silence would be asked about.
    pub(super) fn typed_ply(&self, moves: &[Move]) -> String {
        let text = format_ply(&self.engine, &self.state, moves);
        if self.untyped_optional_choice(&text, moves).is_some() {
            format!("{text} take none")
        } else {
            text
        }
    }

    /// Limits of a solitaire's `hint`: how long it searches, and its other bounds.
    pub fn set_hint_limits(&mut self, limits: HintLimits) {
        self.hint_limits = limits;
    }

    /// The flag that stops a long command (a hint's search, the computer's thinking) when set, as a
    /// Ctrl-C handler does. It is cleared when such a command starts.
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        self.cancel.clone()
    }

    /// Where a long command reports its progress, as a line of text that replaces the last.
    pub fn set_progress(&mut self, progress: ProgressLine) {
        self.progress = Some(progress);
    }

    pub(super) fn hint_move(&mut self) -> Result<Move, SessionError> {
        self.hint_move_at(&self.state, crate::ai::Level::Normal)
    }

    /// The computer's choice at `st` at `level`: a search of the level's playouts seeded by the position
    /// (and the game's seed), so the same position gets the same answer.
    pub(super) fn hint_move_at(&self, st: &State, level: crate::ai::Level) -> Result<Move, SessionError> {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        st.hash(&mut hasher);
        self.seed.hash(&mut hasher);
        let kind = AiKind::Mcts(crate::ai::Budget::Playouts(level.playouts()));
        let mut player =
            kind.player_seeded(&self.engine, hasher.finish()).map_err(|e| SessionError::Usage(e.to_string()))?;
        player.set_cancel(self.cancel.clone());
        player.choose(&self.engine, st).map_err(|e| SessionError::Usage(e.to_string()))
    }

    pub(super) fn ai_move(&mut self) -> Result<Output, SessionError> {
        if self.is_over() {
            return Err(SessionError::GameOver);
        }
        let mv = self.hint_move()?;
        let label = self.label(mv);
        let out = self.decide(mv)?;
        Ok(Output::moved(format!("the computer chose {label}; {}", out.text)))
    }
}
