"""The mechanisms of Gu et al. (ICDE 2020): IDUE, its solvers opt0/opt1/opt2, and IDUE-PS."""
