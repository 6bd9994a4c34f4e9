//! The system calls a bot may not make: a seccomp filter (compiled by `seccompiler`, rust-vmm's
//! BPF compiler, never hand-written BPF) on every process of a sandboxed bot tree, builds
//! included. Everything else is allowed: the filter closes channels between bots and ways out
//! of the sandbox, it does not try to list what programs need.
//!
//! Three programs, one per answer, because a filter has one action for all its matches:
//! - **refused** (`EPERM`): the kernel keyring (`keyctl`, `add_key`, `request_key`: a key is
//!   a message to any process of the same uid), `io_uring` (its operations pass by this
//!   filter), new namespaces (`unshare`, `setns`, `clone` with a `CLONE_NEW*` flag: a user
//!   namespace gives a bot root's powers over what it makes), tracing and reading other
//!   processes (`ptrace`, `process_vm_*`), `perf_event_open` (a precise timer of other
//!   processes' work), `bpf`, `userfaultfd`, and mounts, module loading and the like;
//! - **absent** (`ENOSYS`, so programs take their fallback): `clone3` (its flags are behind a
//!   pointer a filter cannot read; C libraries fall back to `clone`), `inotify_*` and
//!   `fanotify_*` (watching a file that another sandbox opens or touches is a channel: the
//!   system folders are the same files in every sandbox);
//! - **done as if** (returns 0): `flock`, whose exclusive lock on a shared read-only file is
//!   otherwise a bit another sandbox can read; a bot's lock on its own files protected nothing
//!   from anyone else anyway. POSIX record locks (`fcntl`) stay: SQLite needs them (and their
//!   test, `F_GETLK`) in the working copy; the README gives what they still carry.

use std::collections::BTreeMap;

use nix::libc;
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// Refused with `EPERM`, whatever their arguments.
const REFUSED: &[i64] = &[
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_perf_event_open,
    libc::SYS_bpf,
    libc::SYS_userfaultfd,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_chroot,
    libc::SYS_open_by_handle_at,
    libc::SYS_name_to_handle_at,
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_delete_module,
    libc::SYS_kexec_load,
    libc::SYS_swapon,
    libc::SYS_swapoff,
    libc::SYS_reboot,
    libc::SYS_acct,
    libc::SYS_fsopen,
    libc::SYS_fsmount,
    libc::SYS_open_tree,
    libc::SYS_move_mount,
];

/// Absent (`ENOSYS`), so that programs fall back to what they do without them.
#[cfg(target_arch = "x86_64")]
const ABSENT: &[i64] = &[
    libc::SYS_clone3,
    libc::SYS_inotify_init,
    libc::SYS_inotify_init1,
    libc::SYS_inotify_add_watch,
    libc::SYS_fanotify_init,
    libc::SYS_fanotify_mark,
];
#[cfg(not(target_arch = "x86_64"))]
const ABSENT: &[i64] = &[
    libc::SYS_clone3,
    libc::SYS_inotify_init1,
    libc::SYS_inotify_add_watch,
    libc::SYS_fanotify_init,
    libc::SYS_fanotify_mark,
];

/// Done as if they succeeded (0), without doing anything.
const AS_IF: &[i64] = &[libc::SYS_flock];

/// The `clone` flags that make a namespace.
const CLONE_NEW: [i32; 7] = [
    libc::CLONE_NEWNS,
    libc::CLONE_NEWUSER,
    libc::CLONE_NEWPID,
    libc::CLONE_NEWNET,
    libc::CLONE_NEWIPC,
    libc::CLONE_NEWUTS,
    libc::CLONE_NEWCGROUP,
];

/// A filter could not be made for this machine (an architecture seccompiler does not know).
#[derive(Debug, thiserror::Error)]
#[error("no seccomp filter for this machine: {0}")]
pub struct FilterError(String);

/// The bots' filters, compiled for this machine: install them all (the kernel runs every one
/// and takes the strictest answer; each call is in one of them only).
pub fn programs() -> Result<Vec<BpfProgram>, FilterError> {
    let arch =
        TargetArch::try_from(std::env::consts::ARCH).map_err(|e| FilterError(format!("{e:?}")))?;
    let mut refused: BTreeMap<i64, Vec<SeccompRule>> =
        REFUSED.iter().map(|&call| (call, Vec::new())).collect();
    // `clone(flags, …)`: the flags are the first argument on every architecture we build for.
    let new_namespace = CLONE_NEW
        .iter()
        .map(|&flag| {
            let flag = flag as u64;
            SeccompCondition::new(
                0,
                SeccompCmpArgLen::Qword,
                SeccompCmpOp::MaskedEq(flag),
                flag,
            )
            .and_then(|c| SeccompRule::new(vec![c]))
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| FilterError(e.to_string()))?;
    refused.insert(libc::SYS_clone, new_namespace);
    let filter = |calls: BTreeMap<i64, Vec<SeccompRule>>, errno: u32| {
        SeccompFilter::new(
            calls,
            SeccompAction::Allow,
            SeccompAction::Errno(errno),
            arch,
        )
        .and_then(BpfProgram::try_from)
        .map_err(|e| FilterError(e.to_string()))
    };
    let all = |calls: &[i64]| calls.iter().map(|&call| (call, Vec::new())).collect();
    Ok(vec![
        filter(refused, libc::EPERM as u32)?,
        filter(all(ABSENT), libc::ENOSYS as u32)?,
        filter(all(AS_IF), 0)?,
    ])
}

/// The bytes of `program` as bubblewrap reads them from `--add-seccomp-fd` (the kernel's
/// `struct sock_filter` array).
pub fn bytes(program: &BpfProgram) -> Vec<u8> {
    let mut out = Vec::with_capacity(program.len() * 8);
    for f in program {
        out.extend_from_slice(&f.code.to_ne_bytes());
        out.push(f.jt);
        out.push(f.jf);
        out.extend_from_slice(&f.k.to_ne_bytes());
    }
    out
}

/// Installs the filters on the calling thread (and so on everything it starts), with no new
/// privileges from then on.
pub fn install(programs: &[BpfProgram]) -> std::io::Result<()> {
    for program in programs {
        seccompiler::apply_filter(program).map_err(|e| std::io::Error::other(e.to_string()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filters_compile_for_this_machine() {
        let programs = programs().unwrap();
        assert_eq!(programs.len(), 3);
        for p in &programs {
            assert_eq!(bytes(p).len(), p.len() * 8);
        }
    }

    #[test]
    fn a_child_with_the_filters_cannot_use_the_keyring_inotify_or_namespaces() {
        // In a forked child, so the test process keeps its own system calls.
        let programs = programs().unwrap();
        match unsafe { nix::unistd::fork() }.unwrap() {
            nix::unistd::ForkResult::Child => {
                let code = (|| {
                    install(&programs).ok()?;
                    let errno = || std::io::Error::last_os_error().raw_os_error();
                    // SAFETY: plain system calls with no pointers that must be valid.
                    let key = unsafe { libc::syscall(libc::SYS_keyctl, 0, 0, 0, 0, 0) };
                    let inotify = unsafe { libc::inotify_init1(0) };
                    let inotify_errno = errno();
                    let user = unsafe { libc::unshare(libc::CLONE_NEWUSER) };
                    let flock = unsafe { libc::flock(0, libc::LOCK_EX) };
                    let ok = key == -1
                        && inotify == -1
                        && inotify_errno == Some(libc::ENOSYS)
                        && user == -1
                        && flock == 0;
                    Some(ok)
                })();
                unsafe { libc::_exit(if code == Some(true) { 0 } else { 1 }) };
            }
            nix::unistd::ForkResult::Parent { child } => {
                let status = nix::sys::wait::waitpid(child, None).unwrap();
                assert_eq!(status, nix::sys::wait::WaitStatus::Exited(child, 0));
            }
        }
    }
}
