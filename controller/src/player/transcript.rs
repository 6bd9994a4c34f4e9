//! A record of what was said to a bot and what it replied, with times: `take6 check` prints it
//! for a bot's author. Kept only when asked for, so a series pays nothing for it.

use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Who spoke.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speaker {
    Controller,
    Bot,
}

/// One message or reply.
#[derive(Debug, Clone, PartialEq)]
pub struct Said {
    pub game: u64,
    pub speaker: Speaker,
    /// The text, without its last newline.
    pub text: String,
    /// Milliseconds since the bot was started.
    pub at_ms: f64,
    /// For a reply: how long the bot took, from the question being sent.
    pub reply_ms: Option<f64>,
    /// For a reply: whether it was the game's first (which includes start-up).
    pub first: bool,
}

/// The shared log every game of a series writes its bot's lines to.
#[derive(Clone, Default)]
pub struct Transcript {
    lines: Arc<Mutex<Vec<Said>>>,
}

impl std::fmt::Debug for Transcript {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Transcript")
    }
}

/// Any two transcripts compare equal: a transcript is where lines go, not a setting.
impl PartialEq for Transcript {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Transcript {
    /// Everything recorded so far, in the order it happened within each game.
    pub fn lines(&self) -> Vec<Said> {
        self.lines.lock().map(|l| l.clone()).unwrap_or_default()
    }

    /// The recorder of one game's bot.
    pub fn game(&self, game: u64) -> GameTranscript {
        // A bot started afresh for each turn (Botzone's) gets a recorder per process: its
        // game's first reply is the first of any of them.
        let replied = self.lines.lock().is_ok_and(|lines| {
            lines
                .iter()
                .any(|s| s.game == game && s.speaker == Speaker::Bot)
        });
        GameTranscript {
            log: self.clone(),
            game,
            started: Instant::now(),
            asked: None,
            replied,
        }
    }
}

/// What one bot connection writes to the transcript.
pub struct GameTranscript {
    log: Transcript,
    game: u64,
    started: Instant,
    /// When the last question was sent.
    asked: Option<Instant>,
    replied: bool,
}

impl GameTranscript {
    fn push(&self, speaker: Speaker, text: &str, reply_ms: Option<f64>, first: bool) {
        let said = Said {
            game: self.game,
            speaker,
            text: text.trim_end_matches('\n').to_string(),
            at_ms: self.started.elapsed().as_secs_f64() * 1000.0,
            reply_ms,
            first,
        };
        if let Ok(mut lines) = self.log.lines.lock() {
            lines.push(said);
        }
    }

    /// A message was written to the bot.
    pub fn sent(&mut self, text: &str) {
        self.asked = Some(Instant::now());
        self.push(Speaker::Controller, text, None, false);
    }

    /// The bot replied with `line`: its reply time is the first line's after a message (a
    /// reply of several lines, or one followed by Botzone's keep-running marker, is one reply).
    pub fn reply(&mut self, line: &str) {
        let ms = self
            .asked
            .take()
            .map(|t| t.elapsed().as_secs_f64() * 1000.0);
        let first = ms.is_some() && !self.replied;
        self.replied = true;
        self.push(Speaker::Bot, line, ms, first);
    }
}
