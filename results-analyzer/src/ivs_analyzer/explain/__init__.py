"""Layer 3, explain: what moved with a step and who took the CPU (monitor metrics, wait snapshots), the findings'
sentences, and the statistics that judge a claim (verdicts, the sweep ANOVA, tenants' interference, the size
exponent). Imports `load` and `detect`."""
