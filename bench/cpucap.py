#!/usr/bin/env python3
"""CPU caps for bench/scaling: a process (and the children it starts later) in a control group
of its own, limited to a share of one core, and the CPU time a group used.

    bench/cpucap.py method                          which mechanism works here (or why none)
    bench/cpucap.py run GROUP PERCENT -- CMD ...    CMD in GROUP, capped at PERCENT of a core
                                                    (0: measured only, not capped)
    bench/cpucap.py add GROUP PID ...               move running processes into GROUP (made
                                                    uncapped if missing); their later children
                                                    follow
    bench/cpucap.py usage GROUP                     CPU seconds GROUP's processes used (0 for
                                                    a group not made yet)
    bench/cpucap.py remove GROUP                    remove GROUP (its processes have ended)

Mechanisms, in order: cgroup v2 (`cpu.max`, `cpu.stat`'s usage_usec) where the unified
hierarchy at /sys/fs/cgroup offers the cpu controller; cgroup v1 (`cpu.cfs_quota_us` in the cpu
hierarchy, `cpuacct.usage` in the cpuacct one). Both need root (or a delegated hierarchy).
`systemd-run --scope -p CPUQuota=` needs systemd as PID 1, and `taskset` cannot cap below one
core, so neither is used: without a cgroup this exits 3 and says why. Groups are named
deck-bench-GROUP directly under each hierarchy's root, and weigh ten times a process outside
them (SHARES_V1, WEIGHT_V2).
"""
import os
import sys

PERIOD_US = 100_000
# Every group weighs ten times a process outside them (cgroup v1's shares, v2's weight; the
# defaults are 1024 and 100), so that other work on the machine (a build) cannot take a capped
# instance's share away from it, as it could not on a host of its own.
SHARES_V1 = 10240
WEIGHT_V2 = 1000
V2 = "/sys/fs/cgroup"
V1_CPU = "/sys/fs/cgroup/cpu"
V1_ACCT = "/sys/fs/cgroup/cpuacct"


def v2_available():
    try:
        with open(os.path.join(V2, "cgroup.controllers")) as file:
            return "cpu" in file.read().split() and os.access(V2, os.W_OK)
    except OSError:
        return False


def v1_available():
    return all(os.path.exists(os.path.join(root, "cgroup.procs")) and os.access(root, os.W_OK)
               for root in (V1_CPU, V1_ACCT))


def method():
    """"cgroup2", "cgroup1", or None."""
    if v2_available():
        return "cgroup2"
    if v1_available():
        return "cgroup1"
    return None


def why_none():
    if not os.path.isdir(V2):
        return "no /sys/fs/cgroup"
    if os.geteuid() != 0:
        return "creating a control group needs root (or a delegated cgroup hierarchy)"
    return ("neither cgroup v2 with the cpu controller nor cgroup v1's cpu and cpuacct hierarchies "
            "are mounted writable")


def directories(group):
    name = f"deck-bench-{group}"
    kind = method()
    if kind == "cgroup2":
        return kind, [os.path.join(V2, name)]
    if kind == "cgroup1":
        return kind, [os.path.join(V1_CPU, name), os.path.join(V1_ACCT, name)]
    sys.exit(f"cpucap: no CPU cap here: {why_none()}")


def write(path, text):
    with open(path, "w") as file:
        file.write(text)


def make(group, percent):
    kind, paths = directories(group)
    if kind == "cgroup2":
        controls = open(os.path.join(V2, "cgroup.subtree_control")).read().split()
        if "cpu" not in controls:
            write(os.path.join(V2, "cgroup.subtree_control"), "+cpu")
    for path in paths:
        os.makedirs(path, exist_ok=True)
    quota = round(PERIOD_US * percent / 100) if percent > 0 else None
    if kind == "cgroup2":
        write(os.path.join(paths[0], "cpu.max"), f"{quota or 'max'} {PERIOD_US}")
        write(os.path.join(paths[0], "cpu.weight"), str(WEIGHT_V2))
    else:
        write(os.path.join(paths[0], "cpu.cfs_period_us"), str(PERIOD_US))
        write(os.path.join(paths[0], "cpu.cfs_quota_us"), str(quota or -1))
        write(os.path.join(paths[0], "cpu.shares"), str(SHARES_V1))
    return paths


def join(paths, pid):
    for path in paths:
        write(os.path.join(path, "cgroup.procs"), str(pid))


def usage(group):
    """CPU seconds; 0 for a group not made yet."""
    kind, paths = directories(group)
    if not all(os.path.isdir(path) for path in paths):
        return 0.0
    if kind == "cgroup2":
        with open(os.path.join(paths[0], "cpu.stat")) as file:
            fields = dict(line.split() for line in file if line.strip())
        return int(fields["usage_usec"]) / 1e6
    with open(os.path.join(paths[1], "cpuacct.usage")) as file:
        return int(file.read()) / 1e9


def main(args):
    if args[:1] == ["method"]:
        kind = method()
        print(kind or f"none: {why_none()}")
        return 0 if kind else 3
    if len(args) >= 5 and args[0] == "run" and args[3] == "--":
        group, percent = args[1], float(args[2])
        join(make(group, percent), os.getpid())
        os.execvp(args[4], args[4:])
    if len(args) >= 3 and args[0] == "add":
        _, paths = directories(args[1])
        if not all(os.path.isdir(path) for path in paths):
            paths = make(args[1], 0)
        for pid in args[2:]:
            try:
                join(paths, int(pid))
            except ProcessLookupError:
                pass  # it ended meanwhile
        return 0
    if len(args) == 2 and args[0] == "usage":
        print(f"{usage(args[1]):.3f}")
        return 0
    if len(args) == 2 and args[0] == "remove":
        for path in directories(args[1])[1]:
            if os.path.isdir(path):
                os.rmdir(path)
        return 0
    sys.exit(__doc__.split("\n\n")[1])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
