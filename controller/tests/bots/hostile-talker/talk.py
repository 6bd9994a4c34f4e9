import ctypes
import errno
import fcntl
import os
import struct
import sys
import time

ROLE = open('role').read().strip()
SHARED = '/etc/hostname' if os.path.exists('/etc/hostname') else '/etc/passwd'
MESSAGE = b'cards 1 2 3 from A'
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
SYS = {'add_key': 248, 'keyctl': 250, 'io_uring_setup': 425}
KEY_SPEC_USER_KEYRING = -4
KEYCTL_SEARCH, KEYCTL_READ = 10, 11
tried = open('tried.txt', 'a')
tried.write('uid %d\n' % os.getuid())
received = open('received.txt', 'a')


def note(what, rc):
    err = ctypes.get_errno()
    tried.write('%s: %s\n' % (what, 'allowed' if rc >= 0 else 'refused (%s)' % errno.errorcode.get(err, err)))
    tried.flush()


def flock_struct(kind):
    return struct.pack('hh4xqqi4x', kind, 0, 0, 0, 0)


fd = os.open(SHARED, os.O_RDONLY)
if ROLE == 'send':
    rc = libc.syscall(SYS['add_key'], b'user', b'take6-talk', MESSAGE, len(MESSAGE),
                      KEY_SPEC_USER_KEYRING)
    note('add_key', rc)
    rc = libc.unshare(0x10000000)  # CLONE_NEWUSER
    note('unshare user namespace', rc)
    params = ctypes.create_string_buffer(120)
    rc = libc.syscall(SYS['io_uring_setup'], 1, params)
    note('io_uring_setup', rc)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        note('flock', 0)
    except OSError:
        note('flock', -1)
    try:
        fcntl.fcntl(fd, fcntl.F_SETLK, flock_struct(fcntl.F_RDLCK))
        note('fcntl read lock', 0)
    except OSError:
        note('fcntl read lock', -1)
    end = time.time() + 4
    while time.time() < end:
        os.close(os.open(SHARED, os.O_RDONLY))  # what an inotify watcher would see
        time.sleep(0.01)
else:
    ino = libc.inotify_init1(os.O_NONBLOCK)
    note('inotify_init1', ino)
    if ino >= 0:
        libc.inotify_add_watch(ino, SHARED.encode(), 0x20 | 0x01)  # IN_OPEN | IN_ACCESS
    got = set()
    shared_ino = os.stat(SHARED).st_ino
    end = time.time() + 3
    while time.time() < end:
        key = libc.syscall(SYS['keyctl'], KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, b'user',
                           b'take6-talk', 0)
        if key > 0 and 'keyring' not in got:
            buf = ctypes.create_string_buffer(64)
            n = libc.syscall(SYS['keyctl'], KEYCTL_READ, key, buf, 64)
            received.write('keyring: %s\n' % buf.raw[:max(n, 0)].decode(errors='replace'))
            got.add('keyring')
        if ino >= 0 and 'inotify' not in got:
            try:
                if os.read(ino, 4096):
                    received.write('inotify: the sender opened %s\n' % SHARED)
                    got.add('inotify')
            except BlockingIOError:
                pass
        if 'flock' not in got:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                fcntl.flock(fd, fcntl.LOCK_UN)
            except BlockingIOError:
                received.write('flock: the sender holds %s\n' % SHARED)
                got.add('flock')
        if 'fcntl' not in got:
            lock = fcntl.fcntl(fd, fcntl.F_GETLK, flock_struct(fcntl.F_WRLCK))
            if struct.unpack('hh4xqqi4x', lock)[0] != fcntl.F_UNLCK:
                received.write('fcntl: the sender holds a record lock on %s\n' % SHARED)
                got.add('fcntl')
        if 'lock table' not in got:
            # The lock table lists the locks of every process the reader's PID namespace sees:
            # without the sandbox the sender's on the shared file among them (device:inode in
            # the sixth column, or later after a "->").
            try:
                table = open('/proc/locks').read()
            except OSError:
                table = ''
            for entry in table.splitlines():
                if any(t.count(':') == 2 and t.rsplit(':', 1)[1] == str(shared_ino)
                       for t in entry.split()):
                    received.write('lock table: %s\n' % entry.strip())
                    got.add('lock table')
                    break
        received.flush()
        time.sleep(0.01)
tried.close()
received.close()

# Plays the first remaining card in dealt order, row 0 when asked.
picking = False
dealt = []
for line in sys.stdin:
    word = line.split(' ')[0].strip()
    if word == 'cards':
        dealt = line.split()[1:]
    elif word == 'pickrow':
        picking = True
    elif word == 'top':
        if picking:
            picking = False
            print(0, flush=True)
        else:
            print(dealt.pop(0), flush=True)
