"""The command line: `rotation` and its commands, each a thin layer over the library."""
