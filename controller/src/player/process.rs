//! An external bot: one child process per game, spoken to line by line.
//!
//! [`Process`] is the one connection type for a bot (after mini-redis's `Connection`): it owns
//! the child and its process group, the framing (bounded line reads), the time limits, the
//! stderr drain and its cap, and the shutdown. Nothing a bot does can block the controller for
//! longer than the bot's own time limits.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use nix::sys::resource::{Resource, setrlimit};
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::task::JoinHandle;
use tokio::time::timeout;
use tokio_util::codec::{FramedRead, LinesCodec, LinesCodecError};

use super::transcript::GameTranscript;
use super::{Fault, Player};
use crate::game::View;
use crate::protocol::{ReplyError, TemplateSet};

/// The limits a bot plays under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// For the first reply of a game, which includes the bot's start-up.
    pub first_reply: Duration,
    /// For every later reply.
    pub reply: Duration,
    /// How long a bot may take to exit once its input is closed, before its process group is
    /// killed.
    pub grace: Duration,
    /// The longest reply line accepted, in bytes.
    pub line_cap: usize,
    /// How much of a bot's stderr is kept per game, in bytes; the rest is drained and counted.
    pub stderr_cap: usize,
    /// The address-space limit (RLIMIT_AS) of the bot's processes in bytes, if any.
    pub memory: Option<u64>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            first_reply: Duration::from_millis(3000),
            reply: Duration::from_millis(1000),
            grace: Duration::from_millis(1000),
            line_cap: 1024,
            stderr_cap: 64 * 1024,
            memory: None,
        }
    }
}

/// What a bot wrote to stderr during one game, capped.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StderrLog {
    /// The first `stderr_cap` bytes.
    pub kept: Vec<u8>,
    /// How many bytes past the cap were read and thrown away.
    pub dropped: u64,
}

/// A running bot.
pub struct Process {
    child: Child,
    /// The child leads its own process group, so one signal reaches everything it started.
    group: Pid,
    stdin: Option<ChildStdin>,
    stdout: FramedRead<ChildStdout, LinesCodec>,
    stderr: Option<JoinHandle<StderrLog>>,
    templates: Arc<TemplateSet>,
    limits: Limits,
    replied: bool,
    /// Set when a message could not be delivered; reported at the next question.
    broken: Option<Fault>,
    /// Whether the process group has been killed already.
    ended: bool,
    /// Where messages and replies are recorded (`take6 check`), if anywhere.
    transcript: Option<GameTranscript>,
}

impl Process {
    /// Starts `launch` in `workdir` (the bot's working copy) as the leader of a new process
    /// group. A failure to start is the bot's fault, returned as such.
    pub fn spawn(
        launch: &Path,
        workdir: &Path,
        templates: Arc<TemplateSet>,
        limits: Limits,
    ) -> Result<Process, Fault> {
        let mut command = Command::new(launch);
        command
            .current_dir(workdir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        let memory = limits.memory;
        // SAFETY: setrlimit is async-signal-safe and touches no memory of the parent.
        unsafe {
            command.pre_exec(move || {
                // A crashing bot must not fill its working copy with core dumps, game after game.
                setrlimit(Resource::RLIMIT_CORE, 0, 0)?;
                if let Some(bytes) = memory {
                    setrlimit(Resource::RLIMIT_AS, bytes, bytes)?;
                }
                Ok(())
            });
        }
        let mut child = command
            .spawn()
            .map_err(|e| Fault::CouldNotStart(format!("{}: {e}", launch.display())))?;
        let pid = child
            .id()
            .ok_or_else(|| Fault::CouldNotStart(format!("{}: exited at once", launch.display())))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let cap = limits.stderr_cap;
        Ok(Process {
            child,
            group: Pid::from_raw(pid as i32),
            stdin,
            stdout: FramedRead::new(stdout, LinesCodec::new_with_max_length(limits.line_cap)),
            stderr: Some(tokio::spawn(drain(stderr, cap))),
            templates,
            limits,
            replied: false,
            broken: None,
            ended: false,
            transcript: None,
        })
    }

    /// Records every message and reply of this bot in `transcript`.
    pub fn with_transcript(mut self, transcript: GameTranscript) -> Process {
        self.transcript = Some(transcript);
        self
    }

    /// Renders and writes the message for `view`, if its template sends one, unless an earlier
    /// message could not be delivered.
    async fn send(&mut self, view: &View) -> Result<(), Fault> {
        if let Some(fault) = &self.broken {
            return Err(fault.clone());
        }
        self.deliver(view).await
    }

    /// Renders and writes the message for `view`, if its template sends one.
    async fn deliver(&mut self, view: &View) -> Result<(), Fault> {
        let text = match self.templates.render(view) {
            Ok(Some(text)) => text,
            Ok(None) => return Ok(()),
            Err(e) => return Err(self.mark_broken(Fault::Template(e.to_string()))),
        };
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(self.mark_broken(Fault::Exited { status: None }));
        };
        // A bot that stops reading could fill the pipe; it gets as long as for a reply.
        match timeout(self.limits.reply, stdin.write_all(text.as_bytes())).await {
            Ok(Ok(())) => {
                if let Some(t) = &mut self.transcript {
                    t.sent(&text);
                }
                Ok(())
            }
            Ok(Err(_)) => {
                let status = self.exit_status();
                Err(self.mark_broken(Fault::Exited { status }))
            }
            Err(_) => Err(self.mark_broken(Fault::Timeout {
                ms: self.limits.reply.as_millis() as u64,
            })),
        }
    }

    fn mark_broken(&mut self, fault: Fault) -> Fault {
        self.broken = Some(fault.clone());
        fault
    }

    fn exit_status(&mut self) -> Option<String> {
        match self.child.try_wait() {
            Ok(Some(status)) => Some(status.to_string()),
            _ => None,
        }
    }

    /// Sends the prompt for `view` and reads one reply line within the time limit.
    async fn ask(&mut self, view: &View) -> Result<String, Fault> {
        self.send(view).await?;
        let limit = if self.replied {
            self.limits.reply
        } else {
            self.limits.first_reply
        };
        let line = match timeout(limit, self.stdout.next()).await {
            Err(_) => Fault::Timeout {
                ms: limit.as_millis() as u64,
            },
            Ok(Some(Ok(line))) => {
                if let Some(t) = &mut self.transcript {
                    t.reply(&line);
                }
                self.replied = true;
                return Ok(line);
            }
            Ok(Some(Err(LinesCodecError::MaxLineLengthExceeded))) => Fault::LineTooLong {
                cap: self.limits.line_cap,
            },
            Ok(Some(Err(LinesCodecError::Io(e))))
                if e.kind() == std::io::ErrorKind::InvalidData =>
            {
                Fault::BadReply("reply is not UTF-8 text".into(), "bad_reply")
            }
            Ok(Some(Err(LinesCodecError::Io(_)))) | Ok(None) => {
                // Give the exit status a moment to be reaped so the reason can name it.
                let status = timeout(Duration::from_millis(50), self.child.wait())
                    .await
                    .ok()
                    .and_then(Result::ok)
                    .map(|s| s.to_string());
                Fault::Exited { status }
            }
        };
        Err(self.mark_broken(line))
    }

    /// Asks, and reads the number out of the reply with `parse` (the template's reply pattern).
    async fn ask_number(
        &mut self,
        view: &View,
        parse: fn(&TemplateSet, &str) -> Result<i64, ReplyError>,
    ) -> Result<i64, Fault> {
        let line = self.ask(view).await?;
        parse(&self.templates, &line).map_err(|e| self.mark_broken(e.into()))
    }

    /// Ends the game for this bot: optionally sends one last message (`score` or `invalid`),
    /// closes its input, waits up to the grace period for it to exit, then kills its whole
    /// process group (whatever it left behind goes too). Returns what it wrote to stderr.
    pub async fn finish(mut self, last: Option<View>) -> StderrLog {
        if let Some(view) = last {
            // Best effort even after a fault: `invalid` is exactly the message a bot that
            // just faulted should get.
            let _ = self.deliver(&view).await;
        }
        drop(self.stdin.take());
        let _ = timeout(self.limits.grace, self.child.wait()).await;
        self.kill_group();
        let _ = self.child.wait().await;
        // The group is gone, so stderr reaches end of file; a grandchild that left the group
        // could hold it open, so do not wait for ever.
        match self.stderr.take() {
            Some(task) => match timeout(Duration::from_millis(500), task).await {
                Ok(Ok(log)) => log,
                _ => StderrLog::default(),
            },
            None => StderrLog::default(),
        }
    }

    fn kill_group(&mut self) {
        if !self.ended {
            self.ended = true;
            // ESRCH (already gone) is fine.
            let _ = killpg(self.group, Signal::SIGKILL);
        }
    }
}

impl Drop for Process {
    /// A table that is dropped midway (an aborted series) still leaves no process behind.
    fn drop(&mut self) {
        self.kill_group();
        if let Some(task) = &self.stderr {
            task.abort();
        }
    }
}

/// Reads `stream` to its end, keeping the first `cap` bytes: a chatty bot never blocks on a
/// full pipe, and never fills the controller's memory.
async fn drain(mut stream: impl AsyncRead + Unpin, cap: usize) -> StderrLog {
    let mut log = StderrLog::default();
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        match stream.read(&mut buf).await {
            Ok(0) | Err(_) => return log,
            Ok(n) => {
                let room = cap.saturating_sub(log.kept.len()).min(n);
                log.kept.extend_from_slice(&buf[..room]);
                log.dropped += (n - room) as u64;
            }
        }
    }
}

impl Player for Process {
    async fn tell(&mut self, view: &View) {
        // Remembered in `broken`; the next question reports it.
        let _ = self.send(view).await;
    }

    async fn choose_card(&mut self, view: &View) -> Result<i64, Fault> {
        self.ask_number(view, TemplateSet::parse_card).await
    }

    async fn choose_row(&mut self, view: &View) -> Result<i64, Fault> {
        self.ask_number(view, TemplateSet::parse_row).await
    }
}

/// Where a bot's `launch` script is, in its working copy.
pub fn launch_path(workdir: &Path) -> PathBuf {
    workdir.join("launch")
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;
    use crate::game::{Deal, Game, Phase};
    use crate::protocol::default_set;

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
        game.view(0, Phase::Turn, &["a".into(), "b".into()])
    }

    fn limits() -> Limits {
        Limits {
            first_reply: Duration::from_millis(1500),
            reply: Duration::from_millis(300),
            grace: Duration::from_millis(100),
            line_cap: 16,
            stderr_cap: 10,
            memory: None,
        }
    }

    async fn first_answer(body: &str) -> (Result<i64, Fault>, StderrLog) {
        let (dir, launch) = bot(body);
        let mut p = Process::spawn(&launch, dir.path(), default_set(), limits()).unwrap();
        let answer = p.choose_card(&turn_view()).await;
        (answer, p.finish(None).await)
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
        assert_eq!(answer, Err(Fault::Timeout { ms: 1500 }));
        let (answer, _) = first_answer("exit 4").await;
        let fault = answer.unwrap_err();
        assert_eq!(fault.kind(), "exited");
        assert!(fault.to_string().contains('4'), "{fault}");
    }

    #[tokio::test]
    async fn a_bot_that_faulted_is_still_told_invalid() {
        let (dir, launch) =
            bot("read a; read b; read c; echo hello; read x; echo \"$x\" > got.txt");
        let mut p = Process::spawn(&launch, dir.path(), default_set(), limits()).unwrap();
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
    async fn stderr_is_drained_and_capped() {
        let (answer, log) =
            first_answer("head -c 100000 /dev/zero | tr '\\0' e >&2; read a; read b; read c; echo 3; cat >/dev/null").await;
        assert_eq!(answer, Ok(3));
        assert_eq!(log.kept, b"eeeeeeeeee");
        assert_eq!(log.dropped, 100_000 - 10);
    }

    #[tokio::test]
    async fn a_missing_interpreter_is_a_fault_at_start() {
        let dir = tempfile::tempdir().unwrap();
        let launch = dir.path().join("launch");
        std::fs::write(&launch, "#!/no/such/interpreter\n").unwrap();
        std::fs::set_permissions(&launch, std::fs::Permissions::from_mode(0o755)).unwrap();
        let err = Process::spawn(&launch, dir.path(), default_set(), limits())
            .err()
            .expect("cannot start");
        assert_eq!(err.kind(), "could_not_start");
    }
}
