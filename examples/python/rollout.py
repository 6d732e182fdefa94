#!/usr/bin/env python3
"""Roll out N episodes in parallel sessions and write training rows for TRL (GRPO or SFT).

Standard library only (arena_client.py next to this file). Each of --parallel workers holds its own
session (reset in place between its episodes, deleted at the end) and plays episodes with a simple
scripted policy; every step becomes one JSON line in TRL's conversational prompt/completion format:

    {"prompt": [{"role": "system", "content": ...}, {"role": "user", "content": "Observation:\\n{...}"}],
     "completion": [{"role": "assistant", "content": "{\\"action_type\\": ...}"}],
     "reward": 0.012, "return": 0.31, "task": "market_round", "seed": 100, "episode": 0, "step": 3,
     "done": false, "code": "job_allocated"}

`reward` is the step's reward (its round close included), `return` the episode's total (the sum of its
rows' rewards = the seat's cumulative reward). SFTTrainer reads prompt/completion; GRPOTrainer reads
prompt (its reward function can look the row's reward up). Observations are in the original arena's
shapes by default (--format original, what its SFT data holds), or this arena's (--format native).

    python3 examples/python/rollout.py --url http://127.0.0.1:8080 --task market_round \\
        --episodes 32 --parallel 8 --seed 100 --out rollouts.jsonl
"""
import argparse
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from arena_client import ArenaClient  # noqa: E402
from play import choose  # noqa: E402

SYSTEM = (
    "You control one lab in the GPU Budget Negotiation Arena. Each turn you get your observation as JSON "
    "and answer with exactly one action as a JSON object with an action_type (send_offer, accept_offer, "
    "reject_offer, counter_offer, make_pitch, counter_pitch, reserve_capacity, release_capacity, "
    "form_coalition, commit_to_coalition, allocate_to_job, send_message, wait, finish) and its fields."
)


def play_episodes(url, fmt, task, seeds):
    """One worker: its own session, one episode per seed; returns the rows of every episode."""
    rows = []
    env = ArenaClient(url, observation_format=fmt)
    try:
        for seed in seeds:
            obs = env.reset(task=task, seed=seed)["observation"]
            episode, done, step = [], False, 0
            while not done:
                action = choose(obs)
                prompt = [
                    {"role": "system", "content": SYSTEM},
                    {"role": "user", "content": "Observation:\n" + json.dumps(obs, separators=(",", ":"))},
                ]
                res = env.step(action)
                done = res["done"]
                episode.append({
                    "prompt": prompt,
                    "completion": [{"role": "assistant", "content": json.dumps(action)}],
                    "reward": res["reward"],
                    "task": task,
                    "seed": seed,
                    "step": step,
                    "done": done,
                    "code": res["info"]["code"],
                })
                obs = res["observation"]
                step += 1
            total = sum(r["reward"] for r in episode)
            for r in episode:
                r["return"] = total
            rows.append((seed, episode))
    finally:
        env.close()
    return rows


def main():
    p = argparse.ArgumentParser(description="Parallel rollouts → TRL prompt/completion rows (JSON lines).")
    p.add_argument("--url", default="http://127.0.0.1:8080")
    p.add_argument("--task", default="market_round", help="single_trade, market_round or coalition_market")
    p.add_argument("--episodes", type=int, default=8)
    p.add_argument("--parallel", type=int, default=4, help="sessions played at once (one thread each)")
    p.add_argument("--seed", type=int, default=0, help="first seed; episode i plays seed + i")
    p.add_argument("--format", choices=["native", "original"], default="original")
    p.add_argument("--out", default="rollouts.jsonl")
    args = p.parse_args()
    if args.episodes < 1 or args.parallel < 1:
        p.error("--episodes and --parallel must be at least 1")

    seeds = [args.seed + i for i in range(args.episodes)]
    workers = min(args.parallel, args.episodes)
    shares = [seeds[w::workers] for w in range(workers)]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(lambda s: play_episodes(args.url, args.format, args.task, s), shares))
    episodes = sorted((e for worker in results for e in worker), key=lambda e: e[0])
    n = 0
    with open(args.out, "w", encoding="utf-8") as f:
        for index, (_, episode) in enumerate(episodes):
            for row in episode:
                row["episode"] = index
                f.write(json.dumps(row) + "\n")
                n += 1
    returns = [ep[0]["return"] for _, ep in episodes]
    print("episodes %d rows %d workers %d" % (len(episodes), n, workers))
    print("mean return %.4f" % (sum(returns) / len(returns)))
    print("wrote", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
