//! Loop-mounting a disk image and unmounting it with system calls, not with `mount -o loop` and
//! `umount`: each of those tools is a process start (dynamic loading, reading the mount table)
//! of about 2 ms of CPU, two per working copy and series, a fifth of a sandboxed series'
//! fixed cost before this. [`mount`] does what `mount -o loop` does for an ext4 image: a free
//! loop device from `/dev/loop-control`, the image attached to it with autoclear (the device
//! is freed when the file system is unmounted, or when the controller dies), the mount. Where
//! any of that is not possible (no device node, an old kernel), the caller falls back to the
//! tools.
//!
//! The loop ioctls are not in the `libc` or `nix` crates: their numbers and the structure
//! `LOOP_CONFIGURE` takes are written out here from `<linux/loop.h>`.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::fd::AsRawFd;
use std::path::Path;

use nix::libc;
use nix::mount::{MntFlags, MsFlags};

const LOOP_CLR_FD: libc::c_ulong = 0x4C01;
/// Attaches a file and sets the device's flags in one call (Linux 5.8 and later).
const LOOP_CONFIGURE: libc::c_ulong = 0x4C0A;
const LOOP_CTL_GET_FREE: libc::c_ulong = 0x4C82;
/// Detach the device when its last user closes it (here: when the file system is unmounted).
const LO_FLAGS_AUTOCLEAR: u32 = 4;

/// `struct loop_info64` (only `lo_flags` is set; the kernel reads the rest as zero).
#[repr(C)]
#[allow(dead_code)]
struct LoopInfo64 {
    lo_device: u64,
    lo_inode: u64,
    lo_rdevice: u64,
    lo_offset: u64,
    lo_sizelimit: u64,
    lo_number: u32,
    lo_encrypt_type: u32,
    lo_encrypt_key_size: u32,
    lo_flags: u32,
    lo_file_name: [u8; 64],
    lo_crypt_name: [u8; 64],
    lo_encrypt_key: [u8; 32],
    lo_init: [u64; 2],
}

/// `struct loop_config`.
#[repr(C)]
#[allow(dead_code)]
struct LoopConfig {
    fd: u32,
    block_size: u32,
    info: LoopInfo64,
    reserved: [u64; 8],
}

/// How many times a free device is asked for when another process takes it first.
const TRIES: usize = 8;

/// The image's ext4 options: no cache flush requested of the loop device. The image is a
/// series' scratch copy, copied back out at its end: a flush made the loop device `fsync` its
/// image on the host's disk at every unmount (and sync), 30 to 45 ms each on the development
/// machine, waiting on the host's disk; without it the image's blocks reach its file as any
/// write does (and a controller killed meanwhile loses nothing: the kernel still holds them).
///
/// `noinit_itable`: ext4 would otherwise start zeroing every inode table the image's `mkfs`
/// left unwritten (4.4 MiB for a bot's image of 17,410 inodes), a second or two after the
/// mount, in the middle of the games: 44 MiB of writes through the loop devices at the start of
/// a series of ten bots, every series, on a disk a fresh machine has never written. The image
/// is a new sparse file (holes, and `fallocate`'s unwritten extents, read as zeros), so its
/// inode tables already read as zeroed tables do.
pub const OPTIONS: &str = "nobarrier,noinit_itable";

/// Mounts the ext4 image `image` on `dir` through a free loop device, `nosuid`, `nodev`,
/// `noatime`, [`OPTIONS`], as `mount -t ext4 -o loop,nosuid,nodev,noatime,nobarrier,noinit_itable`
/// does.
pub fn mount(image: &Path, dir: &Path) -> io::Result<()> {
    let backing = OpenOptions::new().read(true).write(true).open(image)?;
    let control = OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/loop-control")?;
    let mut last = io::Error::other("no free loop device");
    for _ in 0..TRIES {
        // SAFETY: an ioctl without argument on a descriptor we own.
        let n = unsafe { libc::ioctl(control.as_raw_fd(), LOOP_CTL_GET_FREE) };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        let device = format!("/dev/loop{n}");
        let loop_dev = OpenOptions::new().read(true).write(true).open(&device)?;
        match attach(&loop_dev, &backing) {
            Ok(()) => {}
            // Taken by another process between the two calls: ask again.
            Err(e) if e.raw_os_error() == Some(libc::EBUSY) => {
                last = e;
                continue;
            }
            Err(e) => return Err(e),
        }
        let flags = MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOATIME;
        return match nix::mount::mount(
            Some(device.as_str()),
            dir,
            Some("ext4"),
            flags,
            Some(OPTIONS),
        ) {
            // The mount holds the device now; closing ours leaves it attached.
            Ok(()) => Ok(()),
            Err(e) => {
                // SAFETY: an ioctl without argument on a descriptor we own.
                unsafe { libc::ioctl(loop_dev.as_raw_fd(), LOOP_CLR_FD) };
                Err(io::Error::from(e))
            }
        };
    }
    Err(last)
}

/// Attaches `backing` to the loop device `loop_dev`, detached automatically when unused.
fn attach(loop_dev: &File, backing: &File) -> io::Result<()> {
    // SAFETY: all-zero is a valid `loop_config` (plain integers and byte arrays).
    let mut config: LoopConfig = unsafe { std::mem::zeroed() };
    config.fd = backing.as_raw_fd() as u32;
    config.info.lo_flags = LO_FLAGS_AUTOCLEAR;
    // SAFETY: LOOP_CONFIGURE reads a `loop_config`, which `config` is and outlives the call.
    match unsafe { libc::ioctl(loop_dev.as_raw_fd(), LOOP_CONFIGURE, &config) } {
        0 => Ok(()),
        _ => Err(io::Error::last_os_error()),
    }
}

/// Unmounts `dir`; if it is busy (a process of the bot not yet gone), detaches it so that it is
/// freed when unused, as `umount` then `umount -l` do.
pub fn unmount(dir: &Path) -> io::Result<()> {
    nix::mount::umount2(dir, MntFlags::empty())
        .or_else(|_| nix::mount::umount2(dir, MntFlags::MNT_DETACH))
        .map_err(io::Error::from)
}

/// `FITRIM`, `_IOWR('X', 121, struct fstrim_range)` from `<linux/fs.h>`.
const FITRIM: libc::c_ulong = 0xC018_5879;

/// `struct fstrim_range`.
#[repr(C)]
struct FstrimRange {
    start: u64,
    len: u64,
    minlen: u64,
}

/// Discards every free block of the file system mounted at `dir`: on a loop device the kernel
/// punches them out of the image file, which then takes on the host's disk only the blocks
/// in use. Returns the bytes discarded.
pub fn trim(dir: &Path) -> io::Result<u64> {
    let folder = File::open(dir)?;
    let mut range = FstrimRange {
        start: 0,
        len: u64::MAX,
        minlen: 0,
    };
    // SAFETY: FITRIM reads and writes the structure we own, on a descriptor we own.
    match unsafe { libc::ioctl(folder.as_raw_fd(), FITRIM, &mut range) } {
        -1 => Err(io::Error::last_os_error()),
        _ => Ok(range.len),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_structures_have_the_kernels_sizes() {
        assert_eq!(std::mem::size_of::<LoopInfo64>(), 232);
        assert_eq!(std::mem::size_of::<LoopConfig>(), 304);
        assert_eq!(std::mem::offset_of!(LoopConfig, info), 8);
        assert_eq!(std::mem::offset_of!(LoopInfo64, lo_flags), 52);
    }
}
