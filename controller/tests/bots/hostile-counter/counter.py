import ctypes
import json
import os
import socket
import sys
import threading
import time

ROLE = open('role').read().strip()
SLOT = (int(open('slot_ms').read()) if os.path.exists('slot_ms') else 50) / 1000.0
WRITE = int(open('write_kib').read()) if os.path.exists('write_kib') else 1024
# The hand: 32 bits, half of them ones, known to the test.
HAND = [int(b) for b in '10110010011101001100101101100010']


def stat_field(name):
    for line in open('/proc/stat'):
        if line.startswith(name + ' '):
            return int(line.split()[1])
    return -1


def loadavg_tasks():
    return int(open('/proc/loadavg').read().split()[3].split('/')[1])


def file_nr():
    return int(open('/proc/sys/fs/file-nr').read().split()[0])


def pty_nr():
    return int(open('/proc/sys/kernel/pty/nr').read())


def softnet_processed():
    # Packets processed per processor (its first column, hex), summed: loopback ones included.
    return sum(int(line.split()[0], 16) for line in open('/proc/net/softnet_stat'))


class Sysinfo(ctypes.Structure):
    _fields_ = [('uptime', ctypes.c_long), ('loads', ctypes.c_ulong * 3),
                ('totalram', ctypes.c_ulong), ('freeram', ctypes.c_ulong),
                ('sharedram', ctypes.c_ulong), ('bufferram', ctypes.c_ulong),
                ('totalswap', ctypes.c_ulong), ('freeswap', ctypes.c_ulong),
                ('procs', ctypes.c_ushort), ('pad', ctypes.c_ushort * 3),
                ('totalhigh', ctypes.c_ulong), ('freehigh', ctypes.c_ulong),
                ('mem_unit', ctypes.c_uint), ('f', ctypes.c_char * 8)]


libc = ctypes.CDLL(None, use_errno=True)
# Small stacks: 40 threads fit an address-space limit (--sandbox none) as well as a memory one.
threading.stack_size(1 << 16)


def sysinfo_procs():
    info = Sysinfo()
    return info.procs if libc.sysinfo(ctypes.byref(info)) == 0 else -1


COUNTERS = {
    'processes': lambda: stat_field('processes'),
    'ctxt': lambda: stat_field('ctxt'),
    'intr': lambda: stat_field('intr'),
    'procs_running': lambda: stat_field('procs_running'),
    'loadavg': loadavg_tasks,
    'file-nr': file_nr,
    'statvfs': lambda: os.statvfs('/usr').f_bfree,
    'sysinfo': sysinfo_procs,
    'pty-nr': pty_nr,
    'softnet': softnet_processed,
}

start = (int(time.time()) // 2 + 2) * 2
start_at = start - SLOT
while time.time() < start_at:
    time.sleep(0.005)
if ROLE == 'send':
    out = open('sent.bin', 'ab')
    for i, bit in enumerate(HAND):
        end = start + (i + 1) * SLOT
        if not bit:
            time.sleep(max(0.0, end - time.time()))
            continue
        stop = threading.Event()
        threads = [threading.Thread(target=stop.wait) for _ in range(40)]
        for t in threads:
            t.start()
        files = [os.open('/etc/passwd', os.O_RDONLY) for _ in range(200)]
        ptys = []
        for _ in range(5):
            try:
                ptys.extend(os.openpty())
            except OSError:
                break
        # Packets over the sandbox's own loopback: counted in softnet_stat's processed column.
        rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        rx.bind(('127.0.0.1', 0))
        rx.setblocking(False)
        tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        for _ in range(2000):
            tx.sendto(b'x', rx.getsockname())
            try:
                rx.recv(16)
            except BlockingIOError:
                pass
        tx.close()
        rx.close()
        out.write(os.urandom(WRITE << 10))
        out.flush()
        os.fsync(out.fileno())
        while time.time() < end - 0.005:
            pid = os.fork()
            if pid == 0:
                os._exit(0)
            os.waitpid(pid, 0)
        for f in files + ptys:
            os.close(f)
        stop.set()
        for t in threads:
            t.join()
        time.sleep(max(0.0, end - time.time()))
else:
    if os.getcwd() == '/bot':
        # In a sandbox: try to uncover the machine's counters first, unmounting the frozen
        # copies bound over them (the warm init binds them itself) and reaching the folder
        # they came from; uncover.txt says what each try got (the readings show the rest).
        with open('uncover.txt', 'w') as f:
            for path in ['/proc/stat', '/proc/loadavg', '/proc/sys/fs/file-nr',
                         '/proc/sys/kernel/pty/nr']:
                for flags in (0, 2):  # plain, MNT_DETACH
                    done = libc.umount2(path.encode(), flags) == 0
                    f.write('umount2 %s %d: %s\n' % (
                        path, flags, 'done' if done else 'refused %d' % ctypes.get_errno()))
            for path in ['/.take6/counters', '/.take6']:
                try:
                    f.write('list %s: done %s\n' % (path, sorted(os.listdir(path))))
                except OSError as e:
                    f.write('list %s: refused %d\n' % (path, e.errno))
    seen = {name: [] for name in COUNTERS}
    # Read at three quarters of each slot, and once before the first: what is held then is
    # the slot's bit, and most of what was counted since the last reading is the slot's.
    for i in range(-1, len(HAND)):
        at = start + (i + 0.75) * SLOT
        while time.time() < at:
            time.sleep(0.001)
        for name, read in COUNTERS.items():
            seen[name].append(read())
    # What runtimes size their pools by, as the sandbox shows it.
    with open('sizes.txt', 'w') as f:
        memtotal = [l.split()[1] for l in open('/proc/meminfo') if l.startswith('MemTotal:')]
        f.write('cpu_count %d\nonline %d\nmemtotal_kib %s\n' % (
            os.cpu_count(), os.sysconf('SC_NPROCESSORS_ONLN'), memtotal[0]))
    with open('received.txt', 'w') as f:
        for name, values in seen.items():
            f.write(json.dumps({'counter': name, 'values': values}) + '\n')

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
