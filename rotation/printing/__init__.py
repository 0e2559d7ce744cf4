"""What goes to the printer: wall charts, lists, slips and score sheets, standings pages, pictures, the font."""
