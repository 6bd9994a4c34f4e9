import os
import sys
import time

everywhere = set(range(os.cpu_count()))
started = 0
for _ in range(40):
    pid = os.fork()
    if pid == 0:
        os.setsid()
        if os.fork() != 0:
            os._exit(0)
        try:
            os.sched_setaffinity(0, everywhere)
        except OSError:
            pass
        os.closerange(0, 3)
        end = time.time() + 60
        while time.time() < end:
            pass
        os._exit(0)
    os.waitpid(pid, 0)
    started += 1
with open('spinners.txt', 'w') as f:
    f.write('%d spinners on %d processors\n' % (started, len(everywhere)))
