"""Layer 2, detect: steps and outliers in the client series (per window and per epoch), PELT. Imports only
`load`."""
