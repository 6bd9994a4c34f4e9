//! A bot at a Take 6 table: its [`Process`] (the machinery's, game-blind) and the template set
//! it speaks. Each message is written by the set straight into the process's pending buffer,
//! and each reply read through the set's reply pattern; when the set is the bot's own
//! (`template.toml`), the controller's time on both is the bot's ([`Process::charging`]).

use std::sync::Arc;

use super::game::View;
use super::player::Player;
use super::protocol::{ReplyError, TemplateSet};
use crate::player::{Fault, Finished, Process};

/// A bot's seat: its process and the template set it speaks.
pub struct BotPlayer {
    process: Process,
    set: Arc<TemplateSet>,
}

/// Writes the message for `view`, if `set` sends one, onto `out`.
fn write(set: &TemplateSet, view: &View, out: &mut String) -> Result<(), Fault> {
    set.render_into(view, out)
        .map(|_| ())
        .map_err(|e| Fault::Template(e.to_string()))
}

impl BotPlayer {
    /// The bot of `process`, spoken to in `set`; a set of the bot's own is its own time.
    pub fn new(process: Process, set: Arc<TemplateSet>) -> BotPlayer {
        BotPlayer {
            process: process.charging(set.charged()),
            set,
        }
    }

    /// Asks, and reads the number out of the reply with `parse` (the set's reply pattern).
    async fn ask_number(
        &mut self,
        view: &View,
        parse: fn(&TemplateSet, &str) -> Result<i64, ReplyError>,
    ) -> Result<i64, Fault> {
        let set = &self.set;
        let line = self.process.ask_with(|out| write(set, view, out)).await?;
        // Parsing through the bot's own reply pattern is counted with its next reply.
        let parsed = self.process.on_behalf(|| parse(set, &line));
        parsed.map_err(|e| self.process.faulted(e.into()))
    }

    /// Ends the game for this bot: sends `last` (`score` or `invalid`) if any, then shuts it
    /// down ([`Process::finish_with`]).
    pub async fn finish(self, last: Option<View>) -> Finished {
        let BotPlayer { process, set } = self;
        match last {
            Some(view) => process.finish_with(|out| write(&set, &view, out)).await,
            None => process.finish_text(None).await,
        }
    }
}

impl Player for BotPlayer {
    async fn tell(&mut self, view: &View) {
        // Written with the next question; a fault is remembered by the process and reported
        // by the next question.
        let set = &self.set;
        let _ = self.process.queue_with(|out| write(set, view, out));
    }

    async fn choose_card(&mut self, view: &View) -> Result<i64, Fault> {
        self.ask_number(view, TemplateSet::parse_card).await
    }

    async fn choose_row(&mut self, view: &View) -> Result<i64, Fault> {
        self.ask_number(view, TemplateSet::parse_row).await
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;
    use std::path::PathBuf;
    use std::time::Duration;

    use super::*;
    use crate::games::take6::game::{Deal, Game, Phase};
    use crate::games::take6::protocol::default_set;
    use crate::player::StderrLog;
    use crate::sandbox::{Clock, Sandbox};

    /// A bot whose `launch` is the shell script `body`, in a fresh folder.
    fn bot(body: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let launch = dir.path().join("launch");
        std::fs::write(&launch, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&launch, std::fs::Permissions::from_mode(0o755)).unwrap();
        (dir, launch)
    }

    fn turn_view() -> View {
        let deal = Deal {
            hands: vec![(1..=10).collect(), (11..=20).collect()],
            rows: [30, 40, 50, 60],
        };
        let mut game = Game::new(&deal);
        game.begin_turn();
        game.view(0, Phase::Turn, &["a".to_string(), "b".to_string()].into())
    }

    /// The bot in `dir` with the default set.
    fn spawn(dir: &std::path::Path) -> BotPlayer {
        let p = Process::spawn(
            &std::sync::Arc::new(Sandbox::none()),
            dir,
            crate::player::process::test_limits(),
        )
        .unwrap();
        BotPlayer::new(p, default_set())
    }

    async fn first_answer(body: &str) -> (Result<i64, Fault>, StderrLog) {
        let (dir, _) = bot(body);
        let mut p = spawn(dir.path());
        let answer = p.choose_card(&turn_view()).await;
        (answer, p.finish(None).await.stderr)
    }

    #[tokio::test]
    async fn replies_are_read_as_lines_whatever_their_line_ending() {
        let (answer, _) =
            first_answer("read a; read b; read c; printf ' 7\\r\\n'; cat >/dev/null").await;
        assert_eq!(answer, Ok(7));
    }

    #[tokio::test]
    async fn bad_bytes_long_lines_silence_and_exits_are_faults() {
        let (answer, _) = first_answer("printf '\\377\\376\\n'; sleep 5").await;
        assert_eq!(answer.unwrap_err().kind(), "bad_reply");
        let (answer, _) = first_answer("printf '12345678901234567890\\n'; sleep 5").await;
        assert_eq!(answer, Err(Fault::LineTooLong { cap: 16 }));
        let (answer, _) = first_answer("sleep 5").await;
        assert_eq!(
            answer,
            Err(Fault::Timeout {
                ms: 1500,
                clock: Clock::Wall
            })
        );
        let (answer, _) = first_answer("exit 4").await;
        let fault = answer.unwrap_err();
        assert_eq!(fault.kind(), "exited");
        assert!(fault.to_string().contains('4'), "{fault}");
    }

    #[tokio::test]
    async fn a_bot_that_faulted_is_still_told_invalid() {
        let (dir, _) = bot("read a; read b; read c; echo hello; read x; echo \"$x\" > got.txt");
        let mut p = spawn(dir.path());
        let view = turn_view();
        assert_eq!(
            p.choose_card(&view).await.unwrap_err().kind(),
            "not_a_number"
        );
        let invalid = View {
            phase: Phase::Invalid,
            ..view
        };
        p.finish(Some(invalid)).await;
        let got = std::fs::read_to_string(dir.path().join("got.txt")).unwrap();
        assert_eq!(got, "invalid\n");
    }

    #[tokio::test]
    async fn news_is_written_with_the_next_question_in_one_write() {
        // The bot's second read (one `read` of up to 4 KiB, by dd) gets `used` and the next
        // question together: news waits for the question instead of waking the bot alone.
        let (dir, _) = bot("dd bs=4096 count=1 2>/dev/null >/dev/null; echo 5; \
             dd bs=4096 count=1 of=second 2>/dev/null; echo 6; cat >/dev/null");
        let mut p = spawn(dir.path());
        let view = turn_view();
        assert_eq!(p.choose_card(&view).await, Ok(5));
        // Time for the bot to block in its second read, so that a write of `used` alone would
        // be all that read returns.
        tokio::time::sleep(Duration::from_millis(200)).await;
        let used = View {
            phase: Phase::Used,
            ..view.clone()
        };
        p.tell(&used).await;
        assert_eq!(p.choose_card(&view).await, Ok(6));
        p.finish(None).await;
        let second = std::fs::read_to_string(dir.path().join("second")).unwrap();
        let expected = [&used, &view]
            .map(|v| default_set().render(v).unwrap().unwrap())
            .concat();
        assert_eq!(second, expected);
    }

    #[tokio::test]
    async fn stderr_is_drained_and_capped() {
        let (answer, log) =
            first_answer("head -c 100000 /dev/zero | tr '\\0' e >&2; read a; read b; read c; echo 3; cat >/dev/null").await;
        assert_eq!(answer, Ok(3));
        assert_eq!(log.kept, b"eeeeeeeeee");
        assert_eq!(log.dropped, 100_000 - 10);
    }
}
