"""GPU prices for ranking plans by cost: the caller's own $/GPU-hour, or listed offers with a source and a date.

``tools/sizing/data/gpu-prices.json`` holds on-demand list prices, each with the vendor page it was
read from, the date and who transcribed it. Prices move and differ by provider several-fold for
the same GPU, so a plan always names the price it used.
"""

from __future__ import annotations

import functools
import json
from importlib.resources import files

from pydantic import BaseModel, ConfigDict, Field

from ..errors import InputFormatError, argument
from .catalog import lookup_gpu

__all__ = ["GPUPrice", "PriceOffer", "gpu_prices", "listed_offers"]


class PriceOffer(BaseModel):
    """One listed on-demand offer."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    gpu: str = Field(description="GPU catalog id")
    usd_per_gpu_hour: float = Field(gt=0, description="US dollars per GPU-hour")
    provider: str = Field(description="Cloud provider")
    offer: str = Field(description="Instance or product, region and billing")
    source: str = Field(description="Vendor page or price list the figure comes from")
    read_on: str = Field(description="Date the price was read (YYYY-MM-DD)")
    transcribed_by: str = Field(description="Where the transcription was read")


class _PriceFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    about: str = Field(alias="_about")
    offers: list[PriceOffer]


class GPUPrice(BaseModel):
    """The price a plan used for one GPU and where it came from."""

    usd_per_gpu_hour: float = Field(description="US dollars per GPU-hour")
    basis: str = Field(description="'given' (the caller's gpu_cost) or the listed offer: provider, offer, source, date")


@functools.cache
def listed_offers() -> tuple[PriceOffer, ...]:
    """Every listed offer, validated (read once)."""
    text = files(__package__).joinpath("data/gpu-prices.json").read_text(encoding="utf-8")
    return tuple(_PriceFile.model_validate(json.loads(text)).offers)


def gpu_prices(gpu_cost: dict[str, float] | None, *, listed: bool) -> dict[str, GPUPrice]:
    """$/GPU-hour by GPU catalog id: the caller's figures (names as people type them), else, with ``listed``, the
    cheapest listed offer for each GPU. A caller's figure wins over a listed one."""
    prices: dict[str, GPUPrice] = {}
    if listed:
        for offer in sorted(listed_offers(), key=lambda o: -o.usd_per_gpu_hour):  # cheapest written last, kept
            prices[offer.gpu] = GPUPrice(
                usd_per_gpu_hour=offer.usd_per_gpu_hour,
                basis=f"listed: {offer.provider} {offer.offer}, {offer.source}, read {offer.read_on} "
                      f"(via {offer.transcribed_by})")
    for name, usd in (gpu_cost or {}).items():
        if not (isinstance(usd, int | float) and 0 < usd < 10_000):
            raise InputFormatError(f"{argument('gpu_cost')}: {name}={usd!r}: a price must be between 0 and 10,000 "
                                   "dollars per GPU-hour")
        gpu = lookup_gpu(name)
        prices[gpu.id] = GPUPrice(usd_per_gpu_hour=float(usd), basis="given")
    return prices
