#!/usr/bin/env python3
"""Times commands against each other, interleaved: each round runs every command once, in a new
random order, so that a slow minute of this virtual machine weighs on all of them alike (hyperfine
runs one command's runs in a block, and the host's speed drifts between blocks by 10-20%).

    interleaved.py OUT.json WARMUP RUNS NAME COMMAND [NAME COMMAND ...]

A COMMAND is split into words as a shell would (no shell runs it) and started with posix_spawn,
its output to /dev/null; its time is from the spawn to its exit. OUT.json has hyperfine's
shape ({"results": [{"command": NAME, "median": s, "mean": s, "times": [...]}]}), and a table of
the medians goes to stdout. A command that fails stops the run.
"""

import json
import os
import random
import shlex
import statistics
import sys
import time


def run_once(words):
    devnull = os.open(os.devnull, os.O_RDWR)
    try:
        actions = [(os.POSIX_SPAWN_DUP2, devnull, 0), (os.POSIX_SPAWN_DUP2, devnull, 1),
                   (os.POSIX_SPAWN_DUP2, devnull, 2)]
        started = time.perf_counter()
        pid = os.posix_spawnp(words[0], words, os.environ, file_actions=actions)
        _, status = os.waitpid(pid, 0)
        seconds = time.perf_counter() - started
    finally:
        os.close(devnull)
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"interleaved: `{shlex.join(words)}` exited {code}")
    return seconds


def main():
    out, warmup, runs, pairs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
    if len(pairs) % 2 or not pairs:
        sys.exit("usage: interleaved.py OUT.json WARMUP RUNS NAME COMMAND [NAME COMMAND ...]")
    commands = {pairs[i]: shlex.split(pairs[i + 1]) for i in range(0, len(pairs), 2)}
    times = {name: [] for name in commands}
    for round_number in range(warmup + runs):
        order = list(commands)
        random.shuffle(order)
        for name in order:
            seconds = run_once(commands[name])
            if round_number >= warmup:
                times[name].append(seconds)
    results = [{"command": name, "median": statistics.median(values), "mean": statistics.fmean(values),
                "min": min(values), "max": max(values), "times": values} for name, values in times.items()]
    with open(out, "w") as file:
        json.dump({"results": results}, file)
    reference = results[0]["median"]
    for result in results:
        print(f"{result['command']:40} median {result['median'] * 1000:7.2f} ms  "
              f"mean {result['mean'] * 1000:7.2f} ms  {result['median'] / reference:5.2f}x {results[0]['command']}")


if __name__ == "__main__":
    main()
