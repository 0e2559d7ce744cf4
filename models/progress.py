"""What the director sees while the solver thinks."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Progress(BaseModel):
    model_config = ConfigDict(frozen=True)

    repeats: int | None = Field(description="E of the best schedule so far, None before the first.")
    lower_bound: int = Field(description="The best proven lower bound on E so far.")
    elapsed: float = Field(description="Seconds since the run started.")
    note: str = Field(default="", description="Which stage is working.")
