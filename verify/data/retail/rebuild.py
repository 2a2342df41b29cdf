"""Rebuild the summary of Retail from the FIMI original: ``python verify/data/retail/rebuild.py retail.dat``.

The original is one transaction (a user, in Gu et al.) per line, its items as integers separated by spaces; Retail's
items are exactly ``0 .. 16469``. The summary keeps what the audit needs and nothing else (``SOURCE.md``):

* ``users``, ``records`` (items summed over the users), ``items`` (the domain ``m``): Table III of Gu et al.;
* ``first_item_counts[i]``: how many users list item ``i`` first (Gu et al. Sec. VII-A: "only the first item of each
  user is considered");
* ``set_sizes``: ``{size: users}``, how many users hold that many items.

The script checks the original's SHA-256 first (``--unchecked`` skips the check, for a file the project has not seen:
the summary it writes is then not the one ``SOURCE.md`` describes). The output is deterministic.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from ldpspec.verify.data import rebuild_command

NAME = "retail"
SHA256 = "d967431ba522e32f0fbb243f2ee113ecd4cb374cb0234c1b0858dae1d499a055"
"""The SHA-256 of the copy the summary was built from (``SOURCE.md``)."""


def summarise(lines: Iterable[bytes | str]) -> dict:
    """The summary of an original given as its lines (a line without items is not a user)."""
    users, records, first, sizes, seen = 0, 0, Counter(), Counter(), set()
    for number, line in enumerate(lines, start=1):
        fields = line.split()
        if not fields:
            continue
        try:
            items = [int(field) for field in fields]
        except ValueError:
            raise ValueError(f"line {number}: items must be integers, got {line!r}") from None
        if min(items) < 0:
            raise ValueError(f"line {number}: items must be >= 0, got {line!r}")
        users += 1
        records += len(items)
        first[items[0]] += 1
        sizes[len(items)] += 1
        seen.update(items)
    if not users:
        raise ValueError("the original holds no user")
    m = max(seen) + 1
    if len(seen) != m:
        raise ValueError(f"the items are not exactly 0 .. {m - 1}: {m - len(seen)} of them never occur")
    return {"data_set": NAME, "users": users, "records": records, "items": m,
            "first_item_counts": [first[i] for i in range(m)],
            "set_sizes": {str(size): sizes[size] for size in sorted(sizes)}}


def build(path) -> dict:
    with open(path, "rb") as file:
        return summarise(file)


main = rebuild_command(NAME, SHA256, build, __doc__, "the FIMI file retail.dat")


if __name__ == "__main__":
    main()
