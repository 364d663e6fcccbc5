#!/usr/bin/env python3
"""Which files a Coccinelle rule can match, by the rule's own grep query.

  cocci-worth.py QUERYFILE FILE...   print the FILEs worth running it on

QUERYFILE holds what `spatch --parse-cocci RULE -D report` prints after
"Grep query": identifiers joined by || and && (with parentheses). spatch
skips a file itself unless the file satisfies that query, a word on some
line for each clause (Cocci_grep.interpret). Here an identifier counts as
present when it occurs anywhere in the file, even inside a longer word or
across lines: that keeps every file spatch would try, and perhaps a few
more, never fewer. A rule with no query ("No grep query"), or a query
this cannot read, keeps every file.
"""
import re
import sys
from pathlib import Path

TOKEN = re.compile(r"\s*(\|\||&&|\(|\)|[A-Za-z_][A-Za-z_0-9]*)")


def parse(query):
    """The query as nested tuples ('or'|'and', [...]) or a str; None if unreadable."""
    tokens, pos = [], 0
    query = query.strip()
    while pos < len(query):
        m = TOKEN.match(query, pos)
        if not m:
            return None
        tokens.append(m.group(1))
        pos = m.end()
        while pos < len(query) and query[pos].isspace():
            pos += 1
    if not tokens:
        return None

    def expr(i, op, sub):
        items, i = sub(i)
        items = [items]
        while i is not None and i < len(tokens) and tokens[i] == op:
            item, i = sub(i + 1)
            if i is None:
                return None, None
            items.append(item)
        return ((("or" if op == "||" else "and"), items) if len(items) > 1 else items[0]), i

    def disj(i):
        return expr(i, "||", conj)

    def conj(i):
        return expr(i, "&&", atom)

    def atom(i):
        if i is None or i >= len(tokens):
            return None, None
        if tokens[i] == "(":
            inner, j = disj(i + 1)
            if j is None or j >= len(tokens) or tokens[j] != ")":
                return None, None
            return inner, j + 1
        if tokens[i] in ("||", "&&", ")"):
            return None, None
        return tokens[i], i + 1

    tree, end = disj(0)
    return tree if end == len(tokens) else None


def holds(tree, text):
    if isinstance(tree, str):
        return tree in text
    op, items = tree
    results = (holds(t, text) for t in items)
    return any(results) if op == "or" else all(results)


def main():
    text = Path(sys.argv[1]).read_text()
    query = "\n".join(l for l in text.splitlines() if l.strip() != "Grep query")
    tree = None
    if "No grep query" not in text:
        tree = parse(query)
        if tree is None:
            print(f"cocci-worth: cannot read the query in {sys.argv[1]}; "
                  "keeping every file", file=sys.stderr)
    for f in sys.argv[2:]:
        if tree is None or holds(tree, Path(f).read_text(errors="replace")):
            print(f)


if __name__ == "__main__":
    main()
