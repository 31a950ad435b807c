#!/usr/bin/env python3
"""Run shell command chains side by side and fail if any fails: `make test` keeps both cores busy
with it (SpinalSim on one, the flows and most of pytest on the other; each is mostly serial).

    scripts/parallel.py "name: cmd1 && cmd2" "other: cmd3 && cmd4"

Every output line is prefixed with its chain's name and the minutes since the chains started (to
see where a chain's time goes), and printed as it comes; at the end one line per chain gives its exit
status and wall time. Exit status: 0 only if every chain succeeded.
"""
import subprocess
import sys
import threading
import time


def main(argv):
    if not argv or any(":" not in a for a in argv):
        sys.exit("parallel: usage: parallel.py 'name: shell command' ... (each argument needs a 'name:' prefix)")
    chains = [(a.split(":", 1)[0].strip(), a.split(":", 1)[1].strip()) for a in argv]
    lock = threading.Lock()
    results = {}

    def run(name, cmd):
        t0 = time.monotonic()
        p = subprocess.Popen(["bash", "-eo", "pipefail", "-c", cmd], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, bufsize=1)
        for line in p.stdout:
            with lock:
                sys.stdout.write(f"[{name} {(time.monotonic() - t0) / 60:4.1f}m] {line}")
                sys.stdout.flush()
        results[name] = (p.wait(), time.monotonic() - t0)

    threads = [threading.Thread(target=run, args=c) for c in chains]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for name, _ in chains:
        rc, s = results[name]
        print(f"parallel: {name}: {'ok' if rc == 0 else f'FAILED (exit {rc})'} in {s / 60:.1f} min")
    return 0 if all(rc == 0 for rc, _ in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
