"""The mechanisms: plain-Python references written once over exponentiated budgets.

Each mechanism's probabilities are plain arithmetic over ``E = e^eps`` (or
``s = e^{eps/2}``), so one function yields exact kernel numbers, floats, and
symbolic z3 terms.
"""
