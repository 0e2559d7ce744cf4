"""Benchmarks of solver time and quality by room size: `python -m benchmarks.run --quick|--full`."""
