//! Disk images for the bots that play, not for every bot of the field (see
//! [docs/sandbox.md](../../../docs/sandbox.md#the-disk-cap)). A working copy's image is
//! allocated whole while its bot is seated (at a table, or for its build) and parked once more
//! idle images are mounted than the series keeps (`keep`, the least recently seated first):
//! its free blocks trimmed off the host, unmounted, holding only what its bot stores. At any
//! moment the seated bots' images and `keep` more (and those being parked) are whole on the
//! host's disk, so a run needs disk for `--jobs` × seats images, not one per bot.
//!
//! A bot's private storage is its image's content throughout. A bot never runs without its
//! image mounted: a seat whose image cannot be mounted again is refused, and its launch with it.

use std::collections::{HashMap, HashSet};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, PoisonError};

use super::{Sandbox, SpawnError};

/// Who has an image now, and who is seated.
#[derive(Debug)]
pub(super) struct Seating {
    state: Mutex<State>,
    /// Told when an image has been parked.
    parked: Condvar,
}

#[derive(Debug)]
struct State {
    /// Idle images kept mounted beyond the seated bots' (`usize::MAX`: every one).
    keep: usize,
    /// Each working copy with the disk cap: what its bot's own files take (its image's room
    /// is that and the disk limit).
    own: HashMap<PathBuf, u64>,
    /// Games (and builds) each working copy is seated at now.
    pins: HashMap<PathBuf, usize>,
    /// When each working copy was last seated (a count of seats), for the least recent.
    last: HashMap<PathBuf, u64>,
    seats: u64,
    /// Each working copy's image now: a number that changes with every image made.
    image: HashMap<PathBuf, u64>,
    /// Images made and unmade while the series ran.
    made: u64,
    unmade: u64,
    /// Why an image could not be made for want of the host's disk, the first time.
    host: Option<String>,
    /// The working copies whose image is being parked now.
    parking: HashSet<PathBuf>,
}

impl Default for Seating {
    fn default() -> Seating {
        Seating {
            state: Mutex::new(State {
                keep: usize::MAX,
                own: HashMap::new(),
                pins: HashMap::new(),
                last: HashMap::new(),
                seats: 0,
                image: HashMap::new(),
                made: 0,
                unmade: 0,
                host: None,
                parking: HashSet::new(),
            }),
            parked: Condvar::new(),
        }
    }
}

impl Seating {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Sandbox {
    /// Keeps at most `keep` idle working copies as mounted images beyond the seated bots':
    /// the others are copied back into their folders until their bot is seated again.
    pub fn keep_images(&self, keep: usize) {
        self.seating.lock().keep = keep;
    }

    /// How many working copies of a field of `field` bots may have an image allocated whole
    /// at once: while they are prepared, `slots` at a time (and as many being parked), and
    /// while `tables` tables of `seats` play, the seated bots', twice as many being parked;
    /// and the idle ones kept.
    pub fn images_at_once(&self, field: usize, slots: usize, tables: usize, seats: usize) -> usize {
        if self.images.is_none() {
            return 0;
        }
        let keep = self.seating.lock().keep;
        let playing = tables.saturating_mul(seats).saturating_mul(3);
        let most = slots.saturating_mul(2).max(playing).saturating_add(keep);
        most.min(field)
    }

    /// Whether working copies have disk images (the disk cap).
    pub fn imaged(&self) -> bool {
        self.images.is_some()
    }

    /// Images made and copied back into their folders while the series ran, besides the first
    /// image of each working copy.
    pub fn image_turnover(&self) -> (u64, u64) {
        let state = self.seating.lock();
        (state.made, state.unmade)
    }

    /// Records that `dir`'s image was made (by [`Sandbox::prepare_workdir`] or
    /// [`Sandbox::resume_workdir`]) for a bot whose own files take `own`, and seats it: its
    /// caller unseats it ([`Sandbox::unseat`]) when it is prepared.
    pub(super) fn seated_with_image(&self, dir: &Path, own: u64) {
        if self.images.is_none() {
            return;
        }
        let mut state = self.seating.lock();
        state.own.insert(dir.to_path_buf(), own);
        *state.pins.entry(dir.to_path_buf()).or_default() += 1;
        state.seats += 1;
        let seats = state.seats;
        state.last.insert(dir.to_path_buf(), seats);
        *state.image.entry(dir.to_path_buf()).or_default() += 1;
    }

    /// Seats the bot of the working copy `dir` (for a game or its build): its disk image is
    /// mounted again (allocated whole first) if it was parked. An error (the host's disk full,
    /// say) means the bot cannot play: it is not seated.
    pub fn seat(&self, dir: &Path) -> io::Result<()> {
        let Some(images) = &self.images else {
            return Ok(());
        };
        let mut state = self.seating.lock();
        if !state.own.contains_key(dir) {
            return Ok(());
        }
        // Being parked in the background: seated once that is done.
        while state.parking.contains(dir) {
            state = self
                .seating
                .parked
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        if images.is_parked(dir) {
            images.unpark(dir)?;
            state.made += 1;
            *state.image.entry(dir.to_path_buf()).or_default() += 1;
        }
        *state.pins.entry(dir.to_path_buf()).or_default() += 1;
        state.seats += 1;
        let seats = state.seats;
        state.last.insert(dir.to_path_buf(), seats);
        Ok(())
    }

    /// The bot of `dir` leaves its seat; idle images past `keep` are parked, the least
    /// recently seated first: in the `background` (on a thread of their own) when a table is
    /// waiting, else now.
    pub fn unseat(self: &Arc<Self>, dir: &Path, background: bool) {
        let Some(images) = &self.images else {
            return;
        };
        let mut state = self.seating.lock();
        if let Some(pins) = state.pins.get_mut(dir) {
            *pins = pins.saturating_sub(1);
        }
        let seated = state.pins.values().filter(|&&p| p > 0).count();
        let mut idle: Vec<(u64, PathBuf)> = state
            .last
            .iter()
            .filter(|(d, _)| state.pins.get(*d).copied().unwrap_or(0) == 0)
            .filter(|(d, _)| !state.parking.contains(*d) && images.is_mounted(d))
            .map(|(d, &t)| (t, d.clone()))
            .collect();
        idle.sort();
        let over = images
            .count()
            .saturating_sub(state.parking.len())
            .saturating_sub(seated.saturating_add(state.keep));
        let parks: Vec<PathBuf> = idle.into_iter().take(over).map(|(_, d)| d).collect();
        if parks.is_empty() {
            return;
        }
        state.parking.extend(parks.iter().cloned());
        drop(state);
        if !background {
            self.park_all(&parks);
            return;
        }
        let sandbox = Arc::clone(self);
        let parked = std::thread::Builder::new()
            .name("take6-park".into())
            .spawn(move || sandbox.park_all(&parks));
        if let Err(e) = parked {
            tracing::warn!("cannot start a thread to park disk images ({e}): they stay mounted");
            let mut state = self.seating.lock();
            state.parking.clear();
            self.seating.parked.notify_all();
        }
    }

    /// Parks the images of `dirs` (their bots idle), each as [`super::image::Images::park`].
    fn park_all(&self, dirs: &[PathBuf]) {
        let Some(images) = &self.images else {
            return;
        };
        for dir in dirs {
            self.end_idle_warm(dir);
            let parked = images.park(dir);
            let mut state = self.seating.lock();
            state.parking.remove(dir);
            match parked {
                Ok(()) => state.unmade += 1,
                Err(e) => tracing::warn!(
                    "cannot park the disk image of the working copy {} ({e}): it stays mounted",
                    dir.display()
                ),
            }
            self.seating.parked.notify_all();
        }
    }

    /// Ends the idle warm sandboxes of `dir`: they hold its image, which goes.
    fn end_idle_warm(&self, dir: &Path) {
        let Some((_, pool)) = &self.warm else {
            return;
        };
        let idle: Vec<super::warm::Warm> = {
            let mut pool = pool.lock().unwrap_or_else(PoisonError::into_inner);
            let keys: Vec<_> = pool.keys().filter(|(d, _)| d == dir).cloned().collect();
            keys.into_iter()
                .filter_map(|k| pool.remove(&k))
                .flatten()
                .collect()
        };
        super::warm::Warm::end_all(idle);
    }

    /// Why a bot could not be seated when the host, not the bot, is to blame (its disk is
    /// full), said once; the series stops then (its games so far are kept), as no game can
    /// be played fairly any more.
    pub fn host_trouble(&self) -> Option<String> {
        self.seating.lock().host.clone()
    }

    /// The error of a launch whose seat failed with `e`: the bot's own when its storage is
    /// past the disk limit, else the host's ([`Sandbox::host_trouble`]).
    pub(super) fn seat_failed(&self, dir: &Path, e: io::Error) -> SpawnError {
        if e.kind() == io::ErrorKind::QuotaExceeded {
            return SpawnError::Breach(super::Breach::Disk {
                mib: self.limits.disk_mib,
            });
        }
        let why = format!(
            "cannot make the disk image of the working copy {}: {e}",
            dir.display()
        );
        self.seating.lock().host.get_or_insert(why.clone());
        SpawnError::Start(io::Error::other(why))
    }

    /// The number of `dir`'s image now (a warm sandbox started on another one holds no
    /// working copy).
    pub(super) fn image_number(&self, dir: &Path) -> u64 {
        self.seating.lock().image.get(dir).copied().unwrap_or(0)
    }

    /// A working copy with the disk cap whose image is not mounted now: its bot was not
    /// seated (or its image could not be made), and it does not run without one.
    pub(super) fn unseated(&self, dir: &Path) -> Result<(), SpawnError> {
        let Some(images) = &self.images else {
            return Ok(());
        };
        if self.seating.lock().own.contains_key(dir) && !images.is_mounted(dir) {
            return Err(SpawnError::Start(io::Error::other(format!(
                "the working copy {} has no disk image now (its bot is not seated)",
                dir.display()
            ))));
        }
        Ok(())
    }
}

/// A bot seated (for a game or its build) until this is dropped.
#[derive(Debug)]
pub struct Seat {
    sandbox: Arc<Sandbox>,
    dir: PathBuf,
    /// Whether a table waits for it to be left: the images it frees are parked in the
    /// background then.
    playing: bool,
}

impl Seat {
    /// Seats the bot of `dir` ([`Sandbox::seat`]).
    pub fn take(sandbox: &Arc<Sandbox>, dir: &Path) -> io::Result<Seat> {
        sandbox.seat(dir)?;
        Ok(Seat::held(sandbox, dir))
    }

    /// [`Seat::take`] for a game.
    pub(super) fn playing(sandbox: &Arc<Sandbox>, dir: &Path) -> io::Result<Seat> {
        let mut seat = Seat::take(sandbox, dir)?;
        seat.playing = true;
        Ok(seat)
    }

    /// The seat [`Sandbox::prepare_workdir`] or [`Sandbox::resume_workdir`] left `dir`'s bot in.
    pub fn held(sandbox: &Arc<Sandbox>, dir: &Path) -> Seat {
        Seat {
            sandbox: Arc::clone(sandbox),
            dir: dir.to_path_buf(),
            playing: false,
        }
    }
}

impl Drop for Seat {
    fn drop(&mut self) {
        self.sandbox.unseat(&self.dir, self.playing);
    }
}
