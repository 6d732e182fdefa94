#!/usr/bin/env python3
"""Steps/s of the original Python arena on this machine, for the ratio `npm run bench` reports.

Usage: python3 scripts/bench-original.py <checkout of abhinavgautam01/GPU_Budget_Negotiation_Arena> [episodes]

Plays `episodes` (default 400) seeded episodes per task with the original's random_validish baseline (one
step = one action + the original's round settlement), after a short warm-up, and prints steps/s per task and
the pooled total (all steps / all seconds), the same pooling as `npm run bench`'s total line. Needs only
pydantic 2 (Debian: python3-pydantic). Run it next to `npm run bench -- --policies random_validish`, in the
same minutes, and compare the totals.
"""
import sys
import time

if len(sys.argv) < 2:
    sys.exit(__doc__)
sys.path.insert(0, sys.argv[1])
from gpu_budget_arena.baselines import random_validish_policy  # noqa: E402
from gpu_budget_arena.env import GpuBudgetNegotiationEnv  # noqa: E402
from gpu_budget_arena.models import ResetConfig  # noqa: E402

TASKS = ['single_trade', 'market_round', 'coalition_market']


def run(task: str, episodes: int, seed0: int = 0) -> tuple[int, float]:
    steps = 0
    start = time.perf_counter()
    for seed in range(seed0, seed0 + episodes):
        env = GpuBudgetNegotiationEnv()
        obs = env.reset(ResetConfig(task_type=task, seed=seed))
        while not obs.done:
            obs = env.step(random_validish_policy(obs))
            steps += 1
    return steps, time.perf_counter() - start


episodes = int(sys.argv[2]) if len(sys.argv) > 2 else 400
for task in TASKS:
    run(task, 30, 10_000)  # warm-up
total_steps, total_seconds = 0, 0.0
for task in TASKS:
    steps, seconds = run(task, episodes)
    total_steps += steps
    total_seconds += seconds
    print(f'{task}: {steps} steps in {seconds:.2f} s = {steps / seconds:.0f} steps/s')
print(f'total: {total_steps / total_seconds:.0f} steps/s')
