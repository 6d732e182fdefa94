#!/usr/bin/env python3
"""Play one episode against the GPU Arena trainer API (`npm run serve`) with a trivial policy.

Standard library only (arena_client.py next to this file). The policy: allocate an own available block
to the first pending job when one is eligible, otherwise wait. Prints the session, each step's action,
code and reward, then the total reward (the sum of the per-step rewards, which equals the seat's
cumulative reward). Works in either observation format (--format native|original).

    python3 examples/python/play.py --url http://127.0.0.1:8080 --task market_round --seed 7
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from arena_client import ArenaClient, ArenaError  # noqa: E402


def choose(obs):
    """Trivial policy: one eligible available block for the first unfinished job, else wait."""
    if "private_jobs" in obs and "self" not in obs:  # the original's shapes
        for job in obs["private_jobs"]:
            if job["completed"]:
                continue
            for block in obs["owned_blocks"]:
                if block["status"] == "available" and block["reliability"] >= job["min_reliability"]:
                    return {"action_type": "allocate_to_job", "job_id": job["job_id"], "block_ids": [block["block_id"]]}
        return {"action_type": "wait"}
    me = obs["self"]
    for job in me["jobs"]:
        if job.get("outcome", "pending") != "pending" or job.get("allocatedHours", 0) >= job["gpuHoursRequired"]:
            continue
        for block in me["blocks"]:
            if block["status"] == "available" and block["reliability"] >= job["minReliability"]:
                return {"action_type": "allocate_to_job", "job_id": job["id"], "block_ids": [block["id"]]}
    return {"action_type": "wait"}


def main():
    p = argparse.ArgumentParser(description="Play one GPU Arena episode over HTTP.")
    p.add_argument("--url", default="http://127.0.0.1:8080", help="server URL")
    p.add_argument("--task", default="single_trade", help="single_trade, market_round or coalition_market")
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--format", choices=["native", "original"], default=None, help="observation format (default: the server's)")
    args = p.parse_args()

    env = ArenaClient(args.url, observation_format=args.format)
    try:
        obs = env.reset(task=args.task, seed=args.seed)["observation"]
        print("session", env.session_id)
        total, steps, done = 0.0, 0, False
        while not done:
            action = choose(obs)
            res = env.step(action)
            obs, done = res["observation"], res["done"]
            total += res["reward"]
            steps += 1
            print("step %d %s -> %s reward %.4f" % (steps, action["action_type"], res["info"]["code"], res["reward"]))
        print("steps", steps)
        print("cumulative reward %.4f" % obs["cumulative_reward"])
        print("total reward %.4f" % total)
    except ArenaError as e:
        print("request refused:", e, file=sys.stderr)
        return 1
    finally:
        env.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
