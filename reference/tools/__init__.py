"""Tools that are not mechanisms: the ldpspec command line and the benchmark."""
