"""The `mpp` command, above every engine: it gathers each engine's subcommands into one parser.
No engine imports this package."""
