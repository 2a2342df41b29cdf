"""Rebuild the summary of the 2010 US census's ages: ``python verify/data/us_census2010_ages/rebuild.py
nc-est2019-agesex-res.csv``.

``nc-est2019-agesex-res.csv`` (US Census Bureau, national population estimates by single year of age and sex) holds
one row per sex (0: both sexes, 1: male, 2: female) and age (0 .. 99, 100 for "100 and over", 999 for the total),
with the 2010 census count in the column ``CENSUS2010POP``. The summary keeps what the audit needs and nothing else
(``SOURCE.md``):

* ``ages``: 0 .. 100 (100 stands for 100 and over);
* ``counts``: the 2010 census count of both sexes at each age;
* ``total``: the file's own total (age 999), which the counts must add up to.

This is the census population, not the IPUMS sample Hao et al. drew from it (US_AGE), which could not be obtained: the
audit uses it as a stand-in with the census's own age distribution. The script checks the original's SHA-256 first
(``--unchecked`` skips the check, for a file the project has not seen: the summary it writes is then not the one
``SOURCE.md`` describes). The output is deterministic.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable

from ldpspec.verify.data import rebuild_command

NAME = "us_census2010_ages"
SHA256 = "e2f05b8e207bce21a94a89cadaf79f8de8fe822e3be76e76c7e83f3c3341a823"
"""The SHA-256 of the copy the summary was built from (``SOURCE.md``)."""

TOP_AGE = 100
"""The file's last age: 100 and over."""


def summarise(lines: Iterable[str]) -> dict:
    """The summary of the file given as its lines of text (a header, then one row per sex and age)."""
    rows = csv.DictReader(lines)
    if rows.fieldnames is None or not {"SEX", "AGE", "CENSUS2010POP"} <= set(rows.fieldnames):
        raise ValueError(f"the header must name SEX, AGE and CENSUS2010POP, got {rows.fieldnames!r}")
    counts, total = {}, None
    for number, row in enumerate(rows, start=2):
        if row["SEX"] != "0":
            continue
        try:
            age, count = int(row["AGE"]), int(row["CENSUS2010POP"])
        except ValueError:
            raise ValueError(f"row {number}: AGE and CENSUS2010POP must be integers, got {row!r}") from None
        if count < 0:
            raise ValueError(f"row {number}: a count must be >= 0, got {count}")
        if age == 999:
            total = count
        elif 0 <= age <= TOP_AGE and age not in counts:
            counts[age] = count
        else:
            raise ValueError(f"row {number}: age {age} is out of 0 .. {TOP_AGE} (and 999) or repeated")
    if sorted(counts) != list(range(TOP_AGE + 1)):
        raise ValueError(f"the ages of both sexes must be exactly 0 .. {TOP_AGE}")
    if total is None or sum(counts.values()) != total:
        raise ValueError(f"the counts add up to {sum(counts.values())}, the file's total (age 999) is {total}")
    return {"data_set": NAME, "ages": list(range(TOP_AGE + 1)), "counts": [counts[age] for age in range(TOP_AGE + 1)],
            "total": total}


def build(path) -> dict:
    with open(path, encoding="utf-8", newline="") as file:
        return summarise(file)


main = rebuild_command(NAME, SHA256, build, __doc__, "the Census Bureau's nc-est2019-agesex-res.csv")


if __name__ == "__main__":
    main()
