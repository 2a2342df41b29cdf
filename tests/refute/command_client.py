"""A client as a command: GRR over 3 items at the budget given as its argument, seeded from LDPSPEC_SEED; reads one
input per line and prints one release per line (JSON)."""

import json
import math
import os
import random
import sys

epsilon = float(sys.argv[1])
p = math.exp(epsilon) / (math.exp(epsilon) + 2)
rng = random.Random(int(os.environ["LDPSPEC_SEED"]))
out = sys.stdout
for line in sys.stdin:
    x = json.loads(line)
    if rng.random() < p:
        y = x
    else:
        y = rng.randrange(2)
        y += y >= x
    out.write(f"{y}\n")
out.flush()
