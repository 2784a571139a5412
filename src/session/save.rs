//! Saving a game to a file and loading it back, replayed on the same rules.

use super::*;

/// The format tag of save files.
const SAVE_FORMAT: &str = "mancala-game/1";
/// The largest save file `load` reads: far more than the longest game's plies in notation.
const MAX_SAVE_BYTES: usize = 4 << 20;

/// A saved game: enough to replay it on the same rules.
///
/// `position` was added to format `mancala-game/1` without a new tag: a file without it starts from the
/// game's own start, as files written before it did.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SaveFile {
    pub format: String,
    /// The rule file, as given on the command line.
    pub rules: String,
    /// A hash of what the rules mean ([`rules_hash`]), to notice when they changed; files written before it
    /// hold a hash of the rule file's text, which still loads while the text is unchanged.
    pub rules_hash: String,
    pub variant: String,
    pub players: u8,
    pub seed: u64,
    pub seats: Vec<String>,
    /// The position the game started from, in the position format, when it was not the game's own start
    /// (`mancala play --position`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// The plies in notation, from the start position.
    pub moves: Vec<String>,
}

impl Session {
    // ------------------------------------------------------------ saving

    /// Writes the game to `path` all or nothing ([`crate::io::write_atomic`]): on a failure the file that
    /// was there is kept, and so is the game.
    pub(super) fn save(&self, path: &Path) -> Result<(), SessionError> {
        let json = self.save_json()?;
        crate::io::write_atomic(path, (json + "\n").as_bytes()).map_err(|e| {
            let kept =
                if path.exists() { format!("{} is as it was", path.display()) } else { "nothing was written".into() };
            SessionError::File(format!(
                "cannot save to {}: {}; {kept}, and the game goes on",
                path.display(),
                crate::io::io_message(&e)
            ))
        })
    }

    /// The game as a save file's JSON (`mancala-game/1`), as `save` writes it; the web playground hands it
    /// to the browser instead of writing a file.
    pub fn save_json(&self) -> Result<String, SessionError> {
        let file = SaveFile {
            format: SAVE_FORMAT.into(),
            rules: self.rules_path.clone(),
            rules_hash: self.rules_hash.clone(),
            variant: self.variant.clone(),
            players: self.engine.rules.players,
            seed: self.seed,
            seats: self.seats.iter().map(|s| s.to_string()).collect(),
            position: self.position.clone(),
            moves: self.history(),
        };
        // A save must load: its plies are replayed before it is written.
        if let Err(e) = replay(&self.engine, &self.start, &file.moves) {
            return Err(SessionError::File(format!(
                "the game cannot be saved, as it would not load ({e}); this is a bug"
            )));
        }
        serde_json::to_string_pretty(&file).map_err(|e| SessionError::File(format!("cannot write the game: {e}")))
    }

    /// Loads a saved game of these same rules, replacing the game in progress only if it all replays.
    pub(super) fn load(&mut self, path: &Path) -> Result<usize, SessionError> {
        // What a save killed midway left behind goes now, not only at the next save.
        crate::io::remove_stale_temporaries(path);
        let text = read_save_text(path, MAX_SAVE_BYTES)?;
        self.load_json(&text, &path.display().to_string())
    }

    /// Loads a saved game from its JSON text, as `load` does from a file; `name` names it in messages.
    /// Returns the number of plies replayed.
    pub fn load_json(&mut self, text: &str, name: &str) -> Result<usize, SessionError> {
        let file = parse_save(text).map_err(|e| SessionError::File(format!("{}: {e}", name)))?;
        if file.variant != self.variant || file.players != self.engine.rules.players {
            return Err(SessionError::File(format!(
                "{} is a game of variant `{}` with {} players, but this session plays variant `{}` with {}; restart with --variant {} --players {}",
                name,
                file.variant,
                file.players,
                self.variant,
                self.engine.rules.players,
                file.variant,
                file.players
            )));
        }
        if file.rules_hash != self.rules_hash && file.rules_hash != self.text_hash {
            return Err(SessionError::File(format!(
                "{} was saved with other rules than {} (the rules changed, or it is another game); start `mancala play` with the rules it was saved with",
                name,
                self.rules_path
            )));
        }
        let start = match &file.position {
            Some(text) => parse_start_position(&self.engine, text).map_err(|e| {
                SessionError::File(format!("{}: the starting position `{text}` does not fit: {e}", name))
            })?,
            None => self.engine.initial_state(),
        };
        let records =
            replay(&self.engine, &start, &file.moves).map_err(|e| SessionError::File(format!("{}: {e}", name)))?;
        self.start = start;
        self.position = file.position;
        self.restart();
        if let Some(last) = records.last() {
            let mut state = last.before.clone();
            for &mv in &last.moves {
                self.engine.apply_unchecked(&mut state, mv);
            }
            self.state = state;
        }
        let n = records.len();
        self.plies = records;
        Ok(n)
    }
}

/// Reads a saved game's file as text, bounded by `limit` bytes (a device such as `/dev/zero` never ends).
pub(super) fn read_save_text(path: &Path, limit: usize) -> Result<String, SessionError> {
    let bytes = crate::io::read_limited(path, limit).map_err(|e| match e {
        crate::io::ReadError::TooLarge { .. } => {
            SessionError::File(format!("{} is {e}, too large for a saved game", path.display()))
        }
        _ => SessionError::File(format!("cannot read {}: {e}", path.display())),
    })?;
    String::from_utf8(bytes).map_err(|e| {
        SessionError::File(format!("{} is not UTF-8 text (byte {})", path.display(), e.utf8_error().valid_up_to()))
    })
}

/// Reads a save file, with a clear message for what is wrong with it. A leading byte order mark, as some
/// editors write, is skipped.
pub fn parse_save(text: &str) -> Result<SaveFile, String> {
    let text = crate::io::strip_bom(text);
    let file: SaveFile = serde_json::from_str(text).map_err(|e| format!("not a saved game ({e})"))?;
    if file.format != SAVE_FORMAT {
        return Err(format!("unknown save format `{}` (expected `{SAVE_FORMAT}`)", file.format));
    }
    Ok(file)
}

pub(super) fn replay(engine: &Engine, start: &State, moves: &[String]) -> Result<Vec<PlyRecord>, String> {
    let mut state = start.clone();
    let mut records = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        let moves =
            parse_ply(engine, &state, text).map_err(|e| format!("ply {} (`{text}`) cannot be played: {e}", i + 1))?;
        let before = state.clone();
        for &mv in &moves {
            engine.apply(&mut state, mv).map_err(|e| format!("ply {} (`{text}`): {e}", i + 1))?;
        }
        records.push(PlyRecord { mover: before.to_move, before, moves, text: text.clone() });
    }
    Ok(records)
}

/// A stable hash of a rule file's text (FNV-1a), as hex.
pub fn source_hash(source: &str) -> String {
    fnv_hex(source.as_bytes())
}

/// A stable hash of what the rules mean: the lowered rules, serialized, without the game's description.
/// Comments, layout and the `about` text do not change it; any change to how the game plays does.
pub fn rules_hash(engine: &Engine) -> String {
    let mut rules = engine.lowered.clone();
    rules.about.clear();
    let json = serde_json::to_vec(&rules).unwrap_or_default();
    fnv_hex(&json)
}

fn fnv_hex(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}
