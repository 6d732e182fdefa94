#!/usr/bin/env python3
"""Play one episode against the GPU Arena trainer API (`npm run serve`) with a trivial policy.

Standard library only (urllib, json, argparse). The policy: allocate an own available block to the
first pending job when one is eligible, otherwise wait. Prints the session, each step's action, code
and reward, then the total reward (the sum of the per-step rewards, which equals the seat's cumulative
reward).

    python3 examples/python/play.py --url http://127.0.0.1:8080 --task market_round --seed 7
"""
import argparse
import json
import sys
import urllib.error
import urllib.request


def call(url, method, path, body=None):
    """One JSON request; returns (status, parsed body). Errors come back as {"error": {code, message}}."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    req = urllib.request.Request(url.rstrip("/") + path, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=30) as res:
            return res.status, json.loads(res.read().decode("utf-8"))
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read().decode("utf-8"))


def choose(obs):
    """Trivial policy: one eligible available block for the first pending job, else wait."""
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
    args = p.parse_args()

    status, reset = call(args.url, "POST", "/reset", {"task_type": args.task, "seed": args.seed})
    if status != 200:
        print("reset failed:", status, reset, file=sys.stderr)
        return 1
    session = reset["session_id"]
    obs = reset["observation"]
    print("session", session)
    total, steps, done = 0.0, 0, False
    while not done:
        action = choose(obs)
        status, res = call(args.url, "POST", "/step", {"session_id": session, "action": action})
        if status != 200:
            print("step failed:", status, res, file=sys.stderr)
            return 1
        obs, done = res["observation"], res["done"]
        total += res["reward"]
        steps += 1
        print("step %d %s -> %s reward %.4f" % (steps, action["action_type"], res["info"]["code"], res["reward"]))
    print("steps", steps)
    print("cumulative reward %.4f" % obs["cumulative_reward"])
    print("total reward %.4f" % total)
    call(args.url, "DELETE", "/session/" + session)
    return 0


if __name__ == "__main__":
    sys.exit(main())
