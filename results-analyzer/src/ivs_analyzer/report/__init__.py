"""Layer 4, report: report.html, charts, the figure book and the sweep and tenants reports written into an output
folder (`folders.report` and `folders.compare` pick the report a folder gets). Imports every layer below."""
