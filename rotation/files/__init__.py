"""What the director gives and gets back as files and text: schedules, lists, score forms, reports."""
