"""The edge of the tool: command line, files written for directors, printing."""
