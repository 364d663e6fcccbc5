#!/usr/bin/env python3
"""Where each command handler's samples went, from folded perf stacks.

    profile-tree.py [--commands N] REPORT [HANDLER...]

REPORT holds lines "count root;...;leaf" between XRC-PROFILE-STACKS and
XRC-PROFILE-END (scripts/bench-profile.sh writes it). For each handler,
prints its share of all samples and the tree of its callees, each with
its share of the handler's samples ("self": in the function itself), down
to callees with at least --min per cent of them. With --commands (how
many commands of each handler's kind ran), each line also gives the time
per command: samples come at a steady rate, so a sample stands for the
sample duration (perf's header, in REPORT) over all samples. That holds
while the process is on a CPU the whole time, as xrc_bench's profile
phase is; a phase that sleeps would inflate the figures. A handler's
subtree starts at its outermost frame: none of them recurses.

Under TCG a sample that falls due while interrupts are off is taken when
they come back on, so time spent under a spin_lock_irq() is charged to the
_raw_spin_unlock_irq() that ends it.
"""
import argparse
import re
from collections import Counter, defaultdict

# The system calls first: REG and UNREG go as ioctl(2), OPEN_QP and
# DESTROY_QP as write(2), so their subtrees are the two halves of the goal
# pair, the framework included. Then the commands' own handlers: REG's
# method handler, and the layer's UNREG (its method handler ends in a
# tail call, so its frame does not show).
HANDLERS = ["__x64_sys_ioctl", "ksys_write",
            "ib_uverbs_handler_UVERBS_METHOD_XRCD_REG_RCV_QP", "ib_xrc_rcv_unreg_qp",
            "ib_uverbs_open_qp", "ib_uverbs_destroy_qp"]


def read_stacks(path):
    stacks, inside, duration_ms = Counter(), False, None
    with open(path, errors="replace") as f:
        for line in f:
            line = line.strip()
            m = re.match(r"# sample duration :\s*([0-9.]+) ms", line)
            if m:
                duration_ms = float(m.group(1))
            elif line == "XRC-PROFILE-STACKS":
                inside = True
            elif line.startswith("XRC-PROFILE-"):
                inside = False
            elif inside and " " in line:
                count, stack = line.split(" ", 1)
                if not count.isdigit():
                    continue  # not a folded stack: a stray console line
                stacks[tuple(stack.split(";"))] += int(count)
    return stacks, duration_ms


def subtree(stacks, handler):
    """The frames below the handler's first frame, with their counts."""
    below = Counter()
    for frames, n in stacks.items():
        if handler in frames:
            below[frames[frames.index(handler) + 1:]] += n
    return below


def show(below, total, depth, min_pct, indent, max_depth, us_each):
    children = defaultdict(Counter)
    self_n = 0
    for rest, n in below.items():
        if rest:
            children[rest[0]][rest[1:]] += n
        else:
            self_n += n
    rows = [(sum(c.values()), name, c) for name, c in children.items()]
    rows.append((self_n, "(self)", None))
    for n, name, c in sorted(rows, key=lambda r: -r[0]):
        pct = 100.0 * n / total
        if pct < min_pct:
            continue
        us = f"{n * us_each:6.3f} us  " if us_each else ""
        print(f"{'  ' * indent}{pct:5.1f}%  {us}{name}")
        if c is not None and depth < max_depth:
            show(c, total, depth + 1, min_pct, indent + 1, max_depth, us_each)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("report")
    ap.add_argument("handlers", nargs="*", default=HANDLERS)
    ap.add_argument("--min", type=float, default=2.0,
                    help="hide callees under this per cent of the handler")
    ap.add_argument("--depth", type=int, default=6)
    ap.add_argument("--commands", type=int,
                    help="commands of each kind run: adds us per command")
    args = ap.parse_args()

    stacks, duration_ms = read_stacks(args.report)
    all_n = sum(stacks.values())
    if not all_n:
        raise SystemExit(f"no folded stacks in {args.report}")
    us_each = None
    if args.commands and duration_ms:
        us_each = duration_ms * 1000.0 / all_n / args.commands
    print(f"{all_n} samples" + (f"; one sample = {us_each * 1000:.3f} ns per command"
                                if us_each else ""))
    for handler in args.handlers:
        below = subtree(stacks, handler)
        n = sum(below.values())
        us = f", {n * us_each:.3f} us per command" if us_each else ""
        print(f"\n{handler}: {n} samples, {100.0 * n / all_n:.1f}% of all{us}")
        if n:
            show(below, n, 1, args.min, 1, args.depth, us_each)


if __name__ == "__main__":
    main()
