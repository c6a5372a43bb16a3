"""Settings: `base` is shared by all; pick `local`, `test` or `production`."""
