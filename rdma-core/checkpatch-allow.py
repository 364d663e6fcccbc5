#!/usr/bin/env python3
"""Drop the checkpatch findings that rdma-core/check-allow accepts.

Reads checkpatch's --emacs output on stdin (one finding per block, blocks
separated by blank lines), prints the accepted ones as one line each and
the others whole, and exits 1 if any finding is left.

check-allow: one entry per line, tab-separated: a regex for the patch
file's name, a regex for the finding's message, and why it is accepted.
"""
import re
import sys


def load(path):
    entries = []
    with open(path) as f:
        for line in f:
            if line.startswith('#') or not line.strip():
                continue
            name, msg, why = line.rstrip('\n').split('\t', 2)
            entries.append((re.compile(name), re.compile(msg), why))
    return entries


def main():
    entries = load(sys.argv[1])
    blocks = [b for b in sys.stdin.read().split('\n\n') if b.strip()]
    left = 0
    for block in blocks:
        head = block.strip().splitlines()[0]
        path, _, rest = head.partition(': ')
        name = path.rsplit(':', 1)[0].rsplit('/', 1)[-1]
        why = next((w for n, m, w in entries
                    if n.search(name) and m.search(rest)), None)
        if why:
            print(f'checkpatch: accepted: {name}: {rest} ({why})')
        else:
            print(block.strip() + '\n')
            left += 1
    return 1 if left else 0


if __name__ == '__main__':
    sys.exit(main())
