"""Layer 1, load: reading results folders into frames (a run, an experiment, a sweep, a tenants timeline, the
activity snapshots). Imports nothing else of the analyzer."""
