//! `logs/<bot>.games.log`: per game where it happened, a bot's faults and its stderr (capped),
//! both through [`crate::untrusted::log`]: hosts `cat` these files. A league labels each game
//! with the version of the bot that played it ([`BotLogs::versions`]).

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::record::GameRecord;
use crate::series::reporter::{Event, Origin, Sink, SinkError, State};
use crate::table::SeatLog;
use crate::untrusted;

/// The label of the version of bot `name` that played game `game`, if the bots have versions.
pub type VersionLabel = Box<dyn Fn(&str, u64) -> Option<String> + Send>;

/// The per-bot log sink. Files are opened for appending, so a resumed series adds to them.
pub struct BotLogs {
    logs: PathBuf,
    files: HashMap<String, BufWriter<File>>,
    version: Option<VersionLabel>,
}

/// `logs/<bot>.games.log`: a name no build log (`<bot>.build.log`) or `controller.log` can take.
fn bot_log_path(logs: &Path, bot: &str) -> PathBuf {
    logs.join(format!("{bot}.games.log"))
}

impl BotLogs {
    pub fn new(logs: PathBuf) -> BotLogs {
        BotLogs {
            logs,
            files: HashMap::new(),
            version: None,
        }
    }

    /// Each game's header names the version that played (`=== game 12 (seat 1, version
    /// alice~2) ===`), as `label` gives it.
    pub fn versions(mut self, label: VersionLabel) -> BotLogs {
        self.version = Some(label);
        self
    }

    fn write(&mut self, record: &GameRecord, logs: &[SeatLog]) -> Result<(), SinkError> {
        for (seat, name) in record.players.iter().enumerate() {
            if record.builtin[seat] {
                continue;
            }
            let faults: Vec<_> = record
                .faults()
                .filter(|(_, f)| f.seat == seat && f.kind != crate::player::ABSENT)
                .collect();
            let stderr = logs.iter().find(|l| l.seat == seat);
            let has_stderr = stderr.is_some_and(|l| !l.stderr.kept.is_empty());
            if faults.is_empty() && !has_stderr {
                continue;
            }
            let path = bot_log_path(&self.logs, name);
            let err = |error| SinkError {
                path: path.clone(),
                error,
            };
            if !self.files.contains_key(name) {
                // Through the door, from the series folder: neither `logs` nor the file may be
                // a link (a resumed folder may have been handed over), nor a FIFO.
                let series = self.logs.parent().unwrap_or(Path::new("."));
                let rel = Path::new("logs").join(path.file_name().unwrap_or_default());
                let file = crate::door::Folder::open(series)
                    .and_then(|f| f.open_append(&rel))
                    .map_err(err)?;
                self.files.insert(name.clone(), BufWriter::new(file));
            }
            let log = self.files.get_mut(name).expect("just inserted");
            let version = match self.version.as_ref().and_then(|v| v(name, record.game)) {
                Some(label) => format!(", version {}", untrusted::log(&label)),
                None => String::new(),
            };
            let mut text = format!("=== game {} (seat {seat}{version}) ===\n", record.game);
            for (round, f) in faults {
                let round = match record.round_count() {
                    1 => String::new(),
                    _ => format!("round {}, ", round + 1),
                };
                text.push_str(&format!(
                    "fault in {round}turn {} ({}): {}\n",
                    f.turn,
                    f.phase.as_str(),
                    untrusted::log(&f.reason)
                ));
            }
            log.write_all(text.as_bytes()).map_err(err)?;
            if let Some(l) = stderr {
                // Hosts `cat` these logs: the bot's stderr is written as inert text.
                log.write_all(untrusted::log_bytes(&l.stderr.kept).as_bytes())
                    .map_err(err)?;
                if l.stderr.dropped > 0 {
                    writeln!(log, "[{} more bytes of stderr dropped]", l.stderr.dropped)
                        .map_err(err)?;
                }
            }
        }
        Ok(())
    }
}

impl Sink for BotLogs {
    fn event(&mut self, event: &Event<'_>, _: &State) -> Result<(), SinkError> {
        if let Event::GameFinished(record, Origin::Played { logs, .. }) = event {
            self.write(record, logs)?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), SinkError> {
        for (name, log) in &mut self.files {
            log.flush().map_err(|error| SinkError {
                path: bot_log_path(&self.logs, name),
                error,
            })?;
        }
        Ok(())
    }
}
