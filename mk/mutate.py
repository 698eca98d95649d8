#!/usr/bin/env python3
"""make mutate: each curated mutant of mk/mutants.py, applied to a copy of
the tree, the test binary rebuilt and the mutant's tests run. A mutant the
tests fail is killed; one they pass is alive, and listed. A mutant whose
text is no longer in its file is stale: the list must follow the code.

Usage: mutate.py [ID...]   (default: every mutant)
Exits 1 when a mutant is stale, or the score is below MUTATE_MIN (percent).
"""
import os
import shutil
import subprocess
import sys
import time

from mutants import MUTANTS

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(TOP, "build-mutate", "tree")


def copy_tree():
    """The tree as committed plus what is not ignored, never a build directory."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=TOP,
                           check=True, capture_output=True, text=True).stdout.split("\n")
    for f in filter(None, files):
        src, dst = os.path.join(TOP, f), os.path.join(WORK, f)
        if not os.path.isfile(src):
            continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if not os.path.exists(dst) or open(src, "rb").read() != open(dst, "rb").read():
            shutil.copy2(src, dst)


def build():
    return subprocess.run(["make", "-s", "-j2", "build/dmamap-tests"], cwd=WORK,
                          capture_output=True, text=True, timeout=900).returncode == 0


def run_tests(filters):
    env = dict(os.environ, DMAMAP_TEST_TIMEOUT="60")
    for f in filters.split():
        r = subprocess.run(["./build/dmamap-tests", f], cwd=WORK, capture_output=True,
                           text=True, env=env, timeout=900)
        if r.returncode != 0:
            return f
    return None


def main():
    wanted = set(sys.argv[1:])
    mutants = [m for m in MUTANTS if not wanted or m[0] in wanted]
    os.makedirs(WORK, exist_ok=True)
    copy_tree()
    if not build():
        print("mutate: the unmutated tree does not build")
        return 1
    killed, alive, stale, stillborn = [], [], [], []
    t0 = time.time()
    for mid, path, find, replace, filters, models in mutants:
        full = os.path.join(WORK, path)
        original = open(full, encoding="utf-8").read()
        if original.count(find) != 1:
            stale.append(mid)
            print(f"{mid:28} STALE    '{find}' is not once in {path}")
            continue
        open(full, "w", encoding="utf-8").write(original.replace(find, replace))
        try:
            if not build():
                stillborn.append(mid)
                verdict, why = "NO BUILD", "the mutant does not compile"
            else:
                by = run_tests(filters)
                if by:
                    killed.append(mid)
                    verdict, why = "killed", f"by {by}"
                else:
                    alive.append(mid)
                    verdict, why = "ALIVE", f"{filters} pass: {models}"
        finally:
            open(full, "w", encoding="utf-8").write(original)
        print(f"{mid:28} {verdict:8} {why}", flush=True)
    build()
    judged = len(killed) + len(alive)
    score = 100.0 * len(killed) / judged if judged else 100.0
    print(f"mutate: {len(killed)} killed, {len(alive)} alive, {len(stillborn)} not built, "
          f"{len(stale)} stale of {len(mutants)}: score {score:.1f}% ({time.time() - t0:.0f} s)")
    if alive:
        print("alive: " + " ".join(alive))
    floor = float(os.environ.get("MUTATE_MIN", "0"))
    return 1 if stale or score < floor else 0


if __name__ == "__main__":
    sys.exit(main())
