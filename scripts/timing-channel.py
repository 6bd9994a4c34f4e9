#!/usr/bin/env python3
"""Measures the timing channel between two bot trees that share a processor, each in a cpu
cgroup of its own as take6 makes them (cpu.shares 1024, a quota of one processor): the sender
spins through a slot for a 1 bit and sleeps for a 0; the receiver counts its own loop
iterations per slot and reads a 1 below the median. Prints the error rate and the capacity of
that binary channel, (1 - H(error)) / slot, in bits per second.

Usage (root, cgroup v1 `cpu` hierarchy at /sys/fs/cgroup/cpu):
    scripts/timing-channel.py SLOT_MS BITS      e.g. 10 500
CPU=n picks the shared processor (default 1; a pinned table's bots share one)."""
import math
import os
import random
import sys
import time

ROOT = "/sys/fs/cgroup/cpu"
slot = int(sys.argv[1]) / 1000.0
n = int(sys.argv[2])
cpu = int(os.environ.get("CPU", "1"))
random.seed(1)
bits = [random.randint(0, 1) for _ in range(n)]


def join(name):
    d = "%s/tchan-%d-%s" % (ROOT, os.getppid() if name == "send" else os.getpid(), name)
    os.makedirs(d, exist_ok=True)
    for key, value in (("cpu.shares", 1024), ("cpu.cfs_period_us", 100000), ("cpu.cfs_quota_us", 100000)):
        with open("%s/%s" % (d, key), "w") as f:
            f.write(str(value))
    with open(d + "/cgroup.procs", "w") as f:
        f.write(str(os.getpid()))
    os.sched_setaffinity(0, {cpu})
    return d


start = time.monotonic() + 0.5
pid = os.fork()
if pid == 0:
    join("send")
    for i, b in enumerate(bits):
        t0 = start + i * slot
        while time.monotonic() < t0:
            time.sleep(0.001)
        if b:
            while time.monotonic() < t0 + slot:
                pass
    os._exit(0)
recv = join("recv")
counts = []
for i in range(n):
    t0 = start + i * slot
    while time.monotonic() < t0:
        pass
    c = 0
    while time.monotonic() < t0 + slot:
        c += 1
    counts.append(c)
os.waitpid(pid, 0)
with open(ROOT + "/cgroup.procs", "w") as f:
    f.write(str(os.getpid()))
for d in (recv, recv.replace("-recv", "-send")):
    os.rmdir(d)
threshold = sorted(counts)[n // 2]
got = [1 if c < threshold else 0 for c in counts]
err = sum(a != b for a, b in zip(bits, got)) / n
h = 0 if err in (0, 1) else -(err * math.log2(err) + (1 - err) * math.log2(1 - err))
print("slot %g ms, %d bits, error rate %.3f, capacity %.1f bits/s" % (slot * 1000, n, err, (1 - h) / slot))
