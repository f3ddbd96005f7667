// Benchmarks: each suite prints figures and ratios measured in one run.
print("stickers-bench: no suites yet")
