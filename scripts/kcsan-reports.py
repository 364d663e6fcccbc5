#!/usr/bin/env python3
"""List the KCSAN data race reports of kernel logs, and fail on the series'.

    kcsan-reports.py FUNCTIONS LOG...

FUNCTIONS names, one a line, the functions defined in the files the series
changes. A report is the series' when one of them is on the stack of
either racing access; such a report fails (exit 1). Other reports are
listed, since KCSAN also finds races the series did not write.

An access made in an interrupt has the interrupted code on its stack too,
below the entry frame (asm_sysvec_*, asm_common_interrupt...): those
frames are not the access's, so a stack is read only down to that frame.
"""
import re
import sys

FRAME = re.compile(r'^\s*(?:\[[^\]]*\]\s*)?([A-Za-z_][\w.]*)\+0x[0-9a-f]+/0x[0-9a-f]+')
STAMP = re.compile(r'^\[\s*[\d.]+\]\s?')


def reports(path):
    """Each report as (title, [function, ...]) in the order of the log."""
    title, frames, entered = None, [], False
    with open(path, errors='replace') as log:
        for line in log:
            line = STAMP.sub('', line.rstrip('\r\n'))
            if 'BUG: KCSAN:' in line:
                if title is not None:
                    yield title + ' (cut off)', frames
                title, frames = line[line.index('BUG: KCSAN:'):], []
            elif title is not None and re.search(r'={20,}\s*$', line):
                yield title, frames
                title = None
            elif title is not None:
                m = FRAME.match(line)
                if not m:
                    entered = False  # a blank line or the next access
                elif not entered:
                    name = m.group(1).split('.')[0]
                    entered = name.startswith('asm_')
                    frames.append(name)
    if title is not None:
        yield title + ' (cut off)', frames


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        series = {line.strip() for line in f if line.strip()}
    ours = others = 0
    for path in sys.argv[2:]:
        for title, frames in reports(path):
            mine = sorted(set(frames) & series)
            if mine:
                ours += 1
                print(f'SERIES  {title}  [{", ".join(mine)}]  ({path})')
            else:
                others += 1
                print(f'other   {title}  ({path})')
    print(f'kcsan: {ours} report(s) in the series\' code, {others} elsewhere')
    sys.exit(1 if ours else 0)


if __name__ == '__main__':
    main()
