#!/usr/bin/env python3
"""The structures behind an OPEN_QP handle and a registration (pahole -C
output, as scripts/handle-sizes.sh collects it), as a markdown table,
with the slimmest OPEN_QP handle the uobject model allows beside them.

    handle-sizes.py PAHOLE.txt
"""
import re
import sys

KMALLOC = [8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192]

# The members of struct ib_qp an opened handle needs: what __ib_open_qp()
# (core/verbs.c) sets, uverbs' uobject back pointer, and the handle's own
# usecnt, which ib_destroy_qp_user() reads. The rest of struct ib_qp (PD,
# CQs, SRQ, MR lists, counters, restrack entry, ...) belongs to the QP.
OPENED_QP_MEMBERS = ["device", "usecnt", "open_list", "real_qp", "uobject",
                     "event_handler", "qp_context", "qp_num", "qp_type", "qp_sec"]


def parse(text):
    """{struct: (size, {member: size})} from pahole -C output."""
    structs, name, members = {}, None, {}
    for line in text.splitlines():
        m = re.match(r"struct (\w+) \{", line)
        if m:
            name, members = m.group(1), {}
            continue
        m = re.search(r"[\s*]\(?\*?(\w+)\)?(?:\([^)]*\))?(?:\[\d+\])?( __attribute__.*)?;\s*/\*\s*\d+\s+(\d+)\s*\*/", line)
        if name and m:
            members[m.group(1)] = int(m.group(3))
        m = re.search(r"/\* size: (\d+),", line)
        if name and m:
            structs[name] = (int(m.group(1)), members)
            name = None
    return structs


def kmalloc_class(n):
    return next(c for c in KMALLOC if c >= n)


def main(path):
    s = parse(open(path).read())
    size = {k: v[0] for k, v in s.items()}
    need = ["ib_uobject", "ib_uevent_object", "ib_uqp_object", "ib_qp", "ib_qp_security",
            "ib_xrc_rcv_reg", "ib_xrc_rcv_qp"]
    missing = [n for n in need if n not in size]
    if missing:
        sys.exit(f"handle-sizes: pahole gave no {', '.join(missing)}")
    qp_members = s["ib_qp"][1]
    lost = [m for m in OPENED_QP_MEMBERS if m not in qp_members]
    if lost:
        sys.exit(f"handle-sizes: struct ib_qp has no {', '.join(lost)}: update OPENED_QP_MEMBERS")
    opened = sum(qp_members[m] for m in OPENED_QP_MEMBERS)
    opened = (opened + 7) // 8 * 8

    print("| what | structure | bytes | kmalloc class |")
    print("|---|---|--:|--:|")
    handle = [("OPEN_QP handle: its uobject", "ib_uqp_object"),
              ("OPEN_QP handle: the opened QP (ib_open_qp)", "ib_qp"),
              ("OPEN_QP handle: its security record", "ib_qp_security")]
    for what, st in handle:
        print(f"| {what} | `struct {st}` | {size[st]} | {kmalloc_class(size[st])} |")
    h_exact = sum(size[st] for _, st in handle)
    h_class = sum(kmalloc_class(size[st]) for _, st in handle)
    print(f"| **OPEN_QP handle** | | **{h_exact}** | **{h_class}** |")
    print(f"| registration (REG of a QP another file holds) | `struct ib_xrc_rcv_reg` | "
          f"{size['ib_xrc_rcv_reg']} | {kmalloc_class(size['ib_xrc_rcv_reg'])} |")
    print(f"| per QP, shared by its owners | `struct ib_xrc_rcv_qp` | {size['ib_xrc_rcv_qp']} | "
          f"{kmalloc_class(size['ib_xrc_rcv_qp'])} |")
    print()
    slim = [("a uobject that delivers events (uevent + XRCD pointer)", size["ib_uevent_object"] + 8),
            (f"an opened-QP record of only {', '.join(OPENED_QP_MEMBERS)}", opened),
            ("its security record, unchanged", size["ib_qp_security"])]
    print("A slim OPEN_QP handle in the uobject model (each part in a cache of its exact size;")
    print("the security record is needed only where an LSM implements the InfiniBand hooks):")
    print()
    print("| part | bytes |")
    print("|---|--:|")
    for what, n in slim:
        print(f"| {what} | {n} |")
    total = sum(n for _, n in slim)
    bare = total - size["ib_qp_security"]
    reg = kmalloc_class(size["ib_xrc_rcv_reg"])
    print(f"| **total without the security record** | **{bare}** |")
    print(f"| **total with it** | **{total}** |")
    print(f"| registration / that handle, without / with | {reg / bare:.2f} / {reg / total:.2f} |")
    print(f"| registration / today's handle (kmalloc classes) | {reg / h_class:.2f} |")
    print(f"| a bare `struct ib_uobject`, which no handle can go below | {size['ib_uobject']} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
