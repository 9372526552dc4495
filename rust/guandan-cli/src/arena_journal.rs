//! `guandan arena --journal FILE`: the games of a long arena written down as they end, so a run
//! that is stopped (a session's end, a machine needed for something else) goes on where it was.
//! JSON lines: a header naming the arena (both profiles, seed, rules, oracle), then one line per
//! game `{"g": index, "game": {...}}`. A resumed run must be the same arena; a last line cut off
//! mid-write is dropped (that game is played again); any other damage is an error. Game `g` is
//! the same game in any run (deal `g / 2`), so a journal made with fewer `--deals` extends.

use crate::input::Usage;
use guandan_ai::AiProfile;
use guandan_ai::arena::{ArenaConfig, Game};
use guandan_core::rules::RuleConfig;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::sync::Mutex;

const KIND: &str = "guandan-arena-journal";

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Header {
    journal: String,
    a: AiProfile,
    b: AiProfile,
    seed: u64,
    rules: RuleConfig,
    a_oracle: bool,
    /// `--untimed` (absent in journals made before it: timed).
    #[serde(default)]
    untimed: bool,
}

#[derive(Serialize, Deserialize)]
struct Line {
    g: usize,
    game: Game,
}

/// An open journal: the games it already holds, and the file new ones are appended to.
pub struct Journal {
    pub played: Vec<Option<Game>>,
    file: Mutex<std::fs::File>,
    path: String,
}

impl Journal {
    /// Opens (or starts) the journal at `path` for the arena `cfg`; the games it holds beyond
    /// `cfg`'s are not used.
    pub fn open(path: &str, cfg: &ArenaConfig) -> Result<Journal, Usage> {
        let header = Header {
            journal: KIND.into(),
            a: cfg.a.clone(),
            b: cfg.b.clone(),
            seed: cfg.seed,
            rules: cfg.rules.clone(),
            a_oracle: cfg.a_oracle,
            untimed: cfg.untimed,
        };
        let total = cfg.deals as usize * 2;
        let mut played = vec![None; total];
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(Usage(format!("cannot read journal {path}: {e}"))),
        };
        let keep = if text.is_empty() {
            let mut line = serde_json::to_string(&header)?;
            line.push('\n');
            std::fs::write(path, &line).map_err(|e| Usage(format!("cannot write journal {path}: {e}")))?;
            line.len()
        } else {
            read(&text, &header, &mut played).map_err(|e| Usage(format!("journal {path}: {e}")))?
        };
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| Usage(format!("cannot open journal {path}: {e}")))?;
        // Drop a line cut off mid-write; new games follow the last whole one.
        file.set_len(keep as u64).map_err(|e| Usage(format!("cannot truncate journal {path}: {e}")))?;
        let mut file = file;
        std::io::Seek::seek(&mut file, std::io::SeekFrom::End(0))?;
        Ok(Journal { played, file: Mutex::new(file), path: path.into() })
    }

    /// How many of the arena's games the journal already held.
    pub fn held(&self) -> usize {
        self.played.iter().filter(|g| g.is_some()).count()
    }

    /// Writes game `g` down (one whole line per write, flushed: a kill loses at most the game
    /// being written). A failed write stops the run: a journal with holes would mislead.
    pub fn write(&self, g: usize, game: &Game) {
        let mut line = serde_json::to_string(&Line { g, game: game.clone() }).expect("a game serialises");
        line.push('\n');
        let mut f = self.file.lock().unwrap_or_else(|p| p.into_inner());
        if let Err(e) = f.write_all(line.as_bytes()).and_then(|_| f.flush()) {
            eprintln!("arena: cannot write journal {}: {e}", self.path);
            std::process::exit(1);
        }
    }
}

/// Reads a journal's text into `played`; returns the byte length of its whole lines.
fn read(text: &str, header: &Header, played: &mut [Option<Game>]) -> Result<usize, String> {
    let mut at = 0;
    let mut lines = text.split_inclusive('\n').peekable();
    let first = lines.next().unwrap_or_default();
    let found: Header = serde_json::from_str(first.trim_end()).map_err(|e| format!("not an arena journal ({e})"))?;
    if found.journal != KIND {
        return Err("not an arena journal".into());
    }
    if found != *header {
        return Err("it was made for another arena (contestants, seed, rules or oracle differ); \
                    use another file or the same arguments"
            .into());
    }
    at += first.len();
    let mut n = 1;
    while let Some(raw) = lines.next() {
        n += 1;
        let last = lines.peek().is_none();
        match serde_json::from_str::<Line>(raw.trim_end()) {
            Ok(line) => {
                if let Some(slot) = played.get_mut(line.g) {
                    *slot = Some(line.game);
                }
                at += raw.len();
            }
            // Cut off mid-write: the run was stopped; that game is played again.
            Err(_) if last && !raw.ends_with('\n') => break,
            Err(e) => return Err(format!("line {n} is damaged ({e})")),
        }
    }
    Ok(at)
}
