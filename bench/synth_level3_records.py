#!/usr/bin/env python3
"""Turns the level-1 timing records of `gen_graph --timing-records` into level-3 ones.

gen_graph writes AICore rows only (level 1: no AICPU dispatch / finish times, no scheduler
phases), which `depgraph sched-overhead` cannot analyse. This adds, deterministically for a
seed, what a level-3 capture holds:

- an `aicpu_tasks` row per AICore row: dispatch 20-400 ticks before the row's receive time,
  finish 10-300 ticks after its end;
- `metadata.core_to_thread`: cores dealt round-robin to THREADS scheduler threads;
- `aicpu_scheduler_phases`: per thread, its dispatch and finish events in time order, cut into
  loop iterations of 1-16 events; each iteration gets a `dispatch` record (ending at its last
  dispatch, with `pop_hit` / `pop_miss`) and a `complete` record (from its first finish, with
  `tasks_processed` = its finishes), both carrying `loop_iter`.

Standard library only. Usage: synth_level3_records.py IN OUT [--seed S] [--threads T]
"""

import argparse
import json
import random


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input", help="level-1 chip_swimlane_records.json (gen_graph --timing-records)")
    parser.add_argument("output", help="level-3 records to write")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=3)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    with open(args.input) as f:
        data = json.load(f)
    metadata = data["metadata"]
    num_cores = int(metadata.get("num_cores") or len(metadata.get("core_types", [])))
    core_to_thread = [c % args.threads for c in range(num_cores)]
    metadata["core_to_thread"] = core_to_thread

    aicpu = []
    events = [[] for _ in range(args.threads)]  # per thread: (time, kind)
    for core, _token, reg, start, end, *rest in data["aicore_tasks"]:
        receive = start - (rest[0] if rest else 0)
        dispatch = receive - rng.randint(20, 400)
        finish = end + rng.randint(10, 300)
        aicpu.append([core, reg, dispatch, finish])
        thread = core_to_thread[core] if core < num_cores else 0
        events[thread].append((dispatch, 0))
        events[thread].append((finish, 1))
    data["aicpu_tasks"] = aicpu

    phases = []
    for thread_events in events:
        thread_events.sort()
        records = []
        loop = 0
        i = 0
        while i < len(thread_events):
            loop += 1
            batch = thread_events[i : i + rng.randint(1, 16)]
            i += len(batch)
            dispatches = [t for t, kind in batch if kind == 0]
            finishes = [t for t, kind in batch if kind == 1]
            if finishes:
                first = min(finishes)
                records.append(
                    {
                        "kind": "complete",
                        "start_cycles": first,
                        "end_cycles": first + 5 + 3 * len(finishes),
                        "loop_iter": loop,
                        "tasks_processed": len(finishes),
                    }
                )
            if dispatches:
                last = max(dispatches)
                hit = len(dispatches)
                records.append(
                    {
                        "kind": "dispatch",
                        "start_cycles": last - 4 - 2 * hit,
                        "end_cycles": last,
                        "loop_iter": loop,
                        "tasks_processed": hit,
                        "pop_hit": hit,
                        "pop_miss": rng.randint(0, 2),
                    }
                )
        phases.append(records)
    data["aicpu_scheduler_phases"] = phases
    data["chip_swimlane_level"] = 3
    with open(args.output, "w") as f:
        json.dump(data, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
