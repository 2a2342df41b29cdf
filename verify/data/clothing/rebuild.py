"""Rebuild the summary of Clothing (Rent the Runway) from its original: ``python verify/data/clothing/rebuild.py FILE``.

``FILE`` is the copy the summary was built from, a Parquet table of the original's rows (``SOURCE.md``; reading it
needs ``pyarrow``), or the original itself, ``renttherunway_final_data.json`` (one JSON record per line, optionally
gzipped). Only two fields of a record are read: ``user_id`` and ``item_id``. A user's data is the *set* of items
the user rented (Gu et al. call each user's data an item set): a user who rented an item twice holds it once.

The summary keeps (``SOURCE.md``):

* ``records`` (rows), ``users``, ``items`` (the domain ``m``), ``pairs`` (distinct user-item pairs);
* ``item_ids``: the original ``item_id`` of each item index ``0 .. m-1`` (ascending);
* ``single``: ``single[i]`` users hold the set ``{i}`` alone;
* ``sets``: every set of two or more items with how many users hold it, ``[users, [items...]]``, items ascending,
  sorted by size and then by items.

That is every user's set, without the users' identities: what Padding-and-Sampling needs to be simulated exactly.

The script checks the SHA-256 of ``FILE`` against the one the project holds (``--unchecked`` skips the check, for a
file the project has not seen, such as the JSON original: the summary is then not the one ``SOURCE.md`` describes).
The output is deterministic.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter, defaultdict
from collections.abc import Iterable

from ldpspec.verify.data import rebuild_command

NAME = "clothing"
SHA256 = "980db07d5f1cc5b429c76457c52977655cabd0aa0651915ec7a2815833e27a58"
"""The SHA-256 of the copy the summary was built from (``SOURCE.md``)."""


def summarise(rows: Iterable[tuple]) -> dict:
    """The summary of the original given as its rows ``(user_id, item_id)`` (integers, or their decimal texts)."""
    held, records = defaultdict(set), 0
    for number, (user, item) in enumerate(rows, start=1):
        try:
            held[int(user)].add(int(item))
        except (TypeError, ValueError):
            raise ValueError(f"row {number}: user_id and item_id must be integers, got {user!r}, {item!r}") from None
        records += 1
    if not records:
        raise ValueError("the original holds no row")
    item_ids = sorted({item for items in held.values() for item in items})
    index = {item: k for k, item in enumerate(item_ids)}
    single, sets = Counter(), Counter()
    for items in held.values():
        indices = tuple(sorted(index[item] for item in items))
        if len(indices) == 1:
            single[indices[0]] += 1
        else:
            sets[indices] += 1
    return {"data_set": NAME, "records": records, "users": len(held), "items": len(item_ids),
            "pairs": sum(len(items) for items in held.values()), "item_ids": item_ids,
            "single": [single[k] for k in range(len(item_ids))],
            "sets": [[sets[key], list(key)] for key in sorted(sets, key=lambda key: (len(key), key))]}


def rows_of(path: str) -> Iterable[tuple]:
    """``(user_id, item_id)`` of each row of the file, a Parquet table or JSON lines (optionally gzipped)."""
    if path.endswith(".parquet"):
        import pyarrow.parquet as parquet

        table = parquet.read_table(path, columns=["user_id", "item_id"]).to_pydict()
        return zip(table["user_id"], table["item_id"])
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as file:
        records = [json.loads(line) for line in file if line.strip()]
    return ((record["user_id"], record["item_id"]) for record in records)


def build(path) -> dict:
    return summarise(rows_of(path))


main = rebuild_command(NAME, SHA256, build, __doc__,
                       "the Parquet copy (SOURCE.md) or renttherunway_final_data.json[.gz]")


if __name__ == "__main__":
    main()
