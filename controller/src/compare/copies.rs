//! A compare's second working copies. Every bot is copied and built once, in `work/NAME`; its
//! built folder is then copied to `second/work/NAME` and handed to the sandbox as a working
//! copy of its own (its own user, its own disk image), so the bot has two copies that never
//! see each other's storage, for the cost of one build.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::bots::{Bot, Skipped, Unusable};
use crate::sandbox::{Sandbox, Seat};
use crate::series::SeriesError;
use crate::series::lineup::Entrant;

/// The folder of the second working copies in a compare's folder.
pub const SECOND: &str = "second";

/// Each bot of `first` (built in the compare folder `dir`'s `work`) copied, as built, to
/// `dir/second/work`: the second copies in `first`'s order, and the bots whose built folder
/// could not be copied, with why.
pub async fn second_copies(
    first: &[Entrant],
    dir: &Path,
    sandbox: &Arc<Sandbox>,
    max_data: u64,
) -> Result<(Vec<Entrant>, Vec<Skipped>), SeriesError> {
    let work = work_folder(dir)?;
    room(first, dir, sandbox, max_data).await?;
    let (mut copies, mut skipped) = (Vec::new(), Vec::new());
    for (bot, wire) in first {
        match second_copy(bot, &work, sandbox, max_data).await {
            Ok(copy) => copies.push((copy, wire.clone())),
            Err(Unusable(reason)) => skipped.push(Skipped {
                name: bot.name.clone(),
                reason,
            }),
        }
    }
    Ok((copies, skipped))
}

/// Refuses the second copies when the disk of `dir` has no room for them (their bots' files
/// and the disk images made at once, one copy after another), as a run's bots are refused.
async fn room(
    first: &[Entrant],
    dir: &Path,
    sandbox: &Arc<Sandbox>,
    max_data: u64,
) -> Result<(), SeriesError> {
    let folders: Vec<crate::bots::Found> = first
        .iter()
        .map(|(b, _)| (PathBuf::from(&b.name), Ok(b.source.clone())))
        .collect();
    let probe = Arc::clone(sandbox);
    let shape = crate::bots::room::Shape {
        slots: 1,
        tables: 0,
        seats: 0,
    };
    let kept = crate::bots::KeptCopies::new();
    let need = tokio::task::spawn_blocking(move || {
        crate::bots::room::need(&folders, &kept, &probe, shape, max_data)
    })
    .await
    .map_err(|e| {
        crate::bots::BotsError::NoRoom(format!("cannot measure the bots' folders: {e}"))
    })?;
    crate::bots::room::check(dir, need, sandbox.limits().disk_mib)?;
    Ok(())
}

/// `dir/second/work`, made beneath the compare's folder without following a link.
fn work_folder(dir: &Path) -> Result<PathBuf, SeriesError> {
    let second = Path::new(SECOND);
    let work = second.join("work");
    let made = crate::door::Folder::open(dir)
        .and_then(|f| f.make_folder(second).map(|_| f))
        .and_then(|f| f.make_folder(&work));
    made.map_err(|error| SeriesError::Write {
        path: dir.join(&work),
        error,
    })?;
    std::path::absolute(dir.join(&work)).map_err(|error| SeriesError::Write {
        path: dir.join(&work),
        error,
    })
}

/// The bot's built working copy copied to `work/NAME` and handed to the sandbox; the error
/// is the reason the bot cannot play.
async fn second_copy(
    bot: &Bot,
    work: &Path,
    sandbox: &Arc<Sandbox>,
    max_data: u64,
) -> Result<Bot, Unusable> {
    let to = work.join(&bot.name);
    // Seated while it is read: a parked disk image holds no readable working copy.
    let seat = Seat::take(sandbox, &bot.workdir)
        .map_err(|e| Unusable(format!("cannot read its built working copy: {e}")))?;
    let (from, copy, source) = (bot.workdir.clone(), to.clone(), bot.source.clone());
    let handover = Arc::clone(sandbox);
    let copied = tokio::task::spawn_blocking(move || {
        let own = crate::folder::scan(&source, max_data)
            .map_err(|e| e.to_string())?
            .footprint();
        crate::bots::wipe(&copy).map_err(|e| format!("cannot clear {}: {e}", copy.display()))?;
        let room = own + (handover.limits().disk_mib << 20);
        let owner = nix::unistd::geteuid().as_raw();
        let left = crate::sandbox::deep::copy_tree(&from, &copy, owner, Some(room))
            .map_err(|e| format!("cannot copy its built working copy: {e}"))?;
        if let Some((path, why)) = left.first() {
            return Err(format!(
                "its built working copy cannot be copied whole for the pairs' second games: \
                 {} {why}",
                crate::untrusted::terminal(&path.display().to_string())
            ));
        }
        handover
            .prepare_workdir(&copy, own)
            .map_err(|e| format!("cannot hand {} to the sandbox: {e}", copy.display()))
    })
    .await
    .map_err(|e| format!("copying its built working copy failed: {e}"));
    drop(seat);
    copied.and_then(|c| c).map_err(Unusable)?;
    // Handed over seated with its image; left now, so that idle images can be parked.
    drop(Seat::held(sandbox, &to));
    Ok(Bot {
        workdir: to,
        ..bot.clone()
    })
}
