/*
 * direct -- the namespaces and mounts of a take6 warm sandbox, made directly, with nothing
 * else: the floor that scripts/bwrap-cost sets bubblewrap against, to tell bubblewrap's own
 * work from the kernel's (issue 39). A measurement, not a sandbox: no user is dropped, no
 * seccomp, no limits.
 *
 * Usage (root): direct WORKDIR   -- makes the PID, network, IPC, UTS, mount and cgroup
 * namespaces, binds /usr, /etc and /opt read-only, links /bin, /lib, /lib64 and /sbin into
 * /usr, mounts /proc, a /dev of six device nodes with its own devpts, a /tmp tmpfs, binds
 * WORKDIR at /bot, pivots into it and execs /usr/bin/true.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <signal.h>
static char stack[1 << 16];
static const char *work;
#define CK(x) do { if ((x) < 0) { perror(#x); _exit(1); } } while (0)
static void bind_ro(const char *src, const char *dst) {
    CK(mount(src, dst, NULL, MS_BIND | MS_REC, NULL));
    CK(mount(NULL, dst, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL));
}
static void devnode(const char *name) {
    char s[64], d[64]; snprintf(s, 64, "/dev/%s", name); snprintf(d, 64, "newroot/dev/%s", name);
    int fd = open(d, O_CREAT | O_WRONLY, 0666); if (fd >= 0) close(fd);
    CK(mount(s, d, NULL, MS_BIND, NULL));
}
static int child(void *arg) {
    (void)arg;
    CK(mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL));
    mkdir("/tmp/take6-direct-root", 0755);
    CK(mount("tmpfs", "/tmp/take6-direct-root", "tmpfs", MS_NODEV | MS_NOSUID, "mode=0755"));
    CK(chdir("/tmp/take6-direct-root"));
    mkdir("newroot", 0755); mkdir("oldroot", 0755);
    CK(mount("newroot", "newroot", NULL, MS_BIND | MS_REC, NULL));
    mkdir("newroot/usr", 0755); bind_ro("/usr", "newroot/usr");
    mkdir("newroot/etc", 0755); bind_ro("/etc", "newroot/etc");
    mkdir("newroot/opt", 0755); bind_ro("/opt", "newroot/opt");
    symlink("usr/bin", "newroot/bin"); symlink("usr/lib", "newroot/lib");
    symlink("usr/lib64", "newroot/lib64"); symlink("usr/sbin", "newroot/sbin");
    mkdir("newroot/proc", 0755);
    CK(mount("proc", "newroot/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL));
    mkdir("newroot/dev", 0755);
    CK(mount("tmpfs", "newroot/dev", "tmpfs", MS_NOSUID, "mode=0755"));
    const char *nodes[] = {"null", "zero", "full", "random", "urandom", "tty"};
    for (int i = 0; i < 6; i++) devnode(nodes[i]);
    mkdir("newroot/dev/pts", 0755); mkdir("newroot/dev/shm", 01777);
    CK(mount("devpts", "newroot/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, "newinstance,ptmxmode=0666,mode=620"));
    symlink("pts/ptmx", "newroot/dev/ptmx");
    mkdir("newroot/tmp", 01777);
    CK(mount("tmpfs", "newroot/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=1048576,mode=1777"));
    mkdir("newroot/bot", 0755);
    CK(mount(work, "newroot/bot", NULL, MS_BIND | MS_REC, NULL));
    CK(chdir("newroot"));
    CK(syscall(SYS_pivot_root, ".", "."));
    CK(umount2(".", MNT_DETACH));
    CK(chdir("/bot"));
    char *argv[] = {"/usr/bin/true", NULL};
    char *envp[] = {"PATH=/usr/bin:/bin", NULL};
    execve(argv[0], argv, envp);
    perror("execve");
    return 1;
}
int main(int argc, char **argv) {
    work = argc > 1 ? argv[1] : "/tmp";
    int flags = CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNS | CLONE_NEWCGROUP | SIGCHLD;
    pid_t pid = clone(child, stack + sizeof stack, flags, NULL);
    if (pid < 0) { perror("clone"); return 1; }
    int st; waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
