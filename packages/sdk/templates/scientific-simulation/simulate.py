"""Gridforge source: a gravitational N-body simulation, deterministic.

A softened N-body system (G = 1) integrated with the kick-drift-kick leapfrog
in float64 with NumPy. The settings come from the environment, overridden by
the task's params.json; the output goes to $GRIDFORGE_OUTPUT_DIR.

Determinism, so that replicas of a task can be compared byte for byte: the
floating-point work is only +, -, *, / and sqrt, which IEEE 754 rounds
exactly; sums run in a fixed order (a pairwise tree of element-wise adds) or
are exactly rounded (math.fsum); no transcendental functions (their results
may differ between CPUs and libraries), no BLAS, no threads; the random
numbers come from NumPy's PCG64 with the task's seed; and no time or host
information is written to the output (only to the log).
"""

import json
import math
import os
import sys
import time
from pathlib import Path

import numpy as np

SETTINGS = {
    # name: (environment variable, type, lowest, highest)
    "n_bodies": ("N_BODIES", int, 2, 20000),
    "steps": ("STEPS", int, 1, 10_000_000),
    "dt": ("DT", float, 1e-9, 1.0),
    "softening": ("SOFTENING", float, 1e-6, 10.0),
    "virial_ratio": ("VIRIAL_RATIO", float, 0.0, 10.0),
    "snapshot_every": ("SNAPSHOT_EVERY", int, 1, 10_000_000),
    "seed": ("SEED", int, 0, 2**63 - 1),
}
BLOCK = 256  # rows of the pairwise matrices computed at once (memory: BLOCK × n × 8 bytes each)


def log(message):
    print(f"[scientific-simulation] {message}", flush=True)


def read_params(input_dir):
    """The task's parameters: a single JSON file, or params.json in a folder (both optional)."""
    for candidate in (input_dir / "input", input_dir / "params.json"):
        if candidate.is_file():
            try:
                params = json.loads(candidate.read_text(encoding="utf-8"))
            except ValueError as error:
                sys.exit(f"{candidate.name} is not JSON: {error}")
            if not isinstance(params, dict):
                sys.exit(f"{candidate.name} must be a JSON object, like {{\"steps\": 500}}")
            return params
    return {}


def settings(params):
    unknown = set(params) - set(SETTINGS)
    if unknown:
        sys.exit(f"unknown parameters {sorted(unknown)} (known: {sorted(SETTINGS)})")
    values = {}
    for name, (variable, kind, low, high) in SETTINGS.items():
        raw = params.get(name, os.environ.get(variable))
        if raw is None:
            sys.exit(f"{variable} is not set")
        if isinstance(raw, bool) or (kind is int and isinstance(raw, float)):
            sys.exit(f"{name}={raw!r} is not a whole number")
        try:
            value = kind(raw)
        except (TypeError, ValueError):
            sys.exit(f"{name}={raw!r} is not a {kind.__name__}")
        if not (low <= value <= high) or (kind is float and not math.isfinite(value)):
            sys.exit(f"{name}={value!r} is not between {low} and {high}")
        values[name] = value
    return values


def tree_sum(matrix):
    """Row sums of a 2-D array, added pairwise in an order that depends only on its width."""
    while matrix.shape[1] > 1:
        half = matrix.shape[1] // 2
        summed = matrix[:, :half] + matrix[:, half : 2 * half]
        if matrix.shape[1] % 2:
            summed = np.concatenate([summed, matrix[:, 2 * half :]], axis=1)
        matrix = summed
    return matrix[:, 0]


def accelerations(pos, mass, eps2):
    """a_i = Σ_j m_j (x_j − x_i) / (|x_j − x_i|² + ε²)^(3/2); the j = i term is 0."""
    n = len(mass)
    acc = np.empty_like(pos)
    x, y, z = pos[:, 0].copy(), pos[:, 1].copy(), pos[:, 2].copy()
    for start in range(0, n, BLOCK):
        stop = min(start + BLOCK, n)
        dx = x[None, :] - x[start:stop, None]
        dy = y[None, :] - y[start:stop, None]
        dz = z[None, :] - z[start:stop, None]
        r2 = dx * dx + dy * dy + dz * dz + eps2
        weight = mass[None, :] / (r2 * np.sqrt(r2))
        acc[start:stop, 0] = tree_sum(weight * dx)
        acc[start:stop, 1] = tree_sum(weight * dy)
        acc[start:stop, 2] = tree_sum(weight * dz)
    return acc


def kinetic_energy(vel, mass):
    return 0.5 * math.fsum((mass * (vel[:, 0] * vel[:, 0] + vel[:, 1] * vel[:, 1] + vel[:, 2] * vel[:, 2])).tolist())


def potential_energy(pos, mass, eps2):
    """−Σ_{i<j} m_i m_j / sqrt(|x_i − x_j|² + ε²), summed exactly rounded."""
    n = len(mass)
    terms = []
    for start in range(0, n, BLOCK):
        stop = min(start + BLOCK, n)
        dx = pos[None, :, 0] - pos[start:stop, None, 0]
        dy = pos[None, :, 1] - pos[start:stop, None, 1]
        dz = pos[None, :, 2] - pos[start:stop, None, 2]
        pair = (mass[start:stop, None] * mass[None, :]) / np.sqrt(dx * dx + dy * dy + dz * dz + eps2)
        upper = np.arange(n)[None, :] > np.arange(start, stop)[:, None]
        terms.extend(pair[upper].tolist())
    return -math.fsum(terms)


def uniform_ball(rng, count):
    """`count` points uniformly in the unit ball, by rejection from the cube (no trigonometry)."""
    chunks, found = [], 0
    while found < count:
        points = rng.random((2 * count, 3)) * 2.0 - 1.0
        inside = points[points[:, 0] * points[:, 0] + points[:, 1] * points[:, 1] + points[:, 2] * points[:, 2] <= 1.0]
        chunks.append(inside)
        found += len(inside)
    return np.concatenate(chunks)[:count]


def initial_conditions(config, input_dir):
    """bodies.csv from the input (x,y,z,vx,vy,vz,m per line), else a uniform sphere of radius 1 and mass 1."""
    bodies = input_dir / "bodies.csv"
    if bodies.is_file():
        rows = []
        for number, line in enumerate(bodies.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip() or line.lstrip().startswith(("#", "x")):
                continue  # blank, comment or header
            fields = line.split(",")
            try:
                row = [float(field) for field in fields]
            except ValueError:
                row = []
            if len(row) != 7 or not all(math.isfinite(value) for value in row) or row[6] <= 0:
                sys.exit(f"bodies.csv line {number}: expected x,y,z,vx,vy,vz,m with m > 0")
            rows.append(row)
        if not 2 <= len(rows) <= SETTINGS["n_bodies"][3]:
            sys.exit(f"bodies.csv has {len(rows)} bodies: between 2 and {SETTINGS['n_bodies'][3]} are accepted")
        data = np.array(rows, dtype=np.float64)
        return data[:, 0:3].copy(), data[:, 3:6].copy(), data[:, 6].copy(), "bodies.csv"

    n = config["n_bodies"]
    rng = np.random.default_rng(config["seed"])
    mass = np.full(n, 1.0 / n)
    pos = uniform_ball(rng, n)
    vel = uniform_ball(rng, n)
    # Centre of mass at rest at the origin (exactly rounded sums).
    for axis in range(3):
        pos[:, axis] -= math.fsum((mass * pos[:, axis]).tolist())
        vel[:, axis] -= math.fsum((mass * vel[:, axis]).tolist())
    # Scale the velocities to the virial ratio K / |W| asked for (0: a cold collapse).
    eps2 = config["softening"] * config["softening"]
    if config["virial_ratio"] == 0.0:
        vel[:] = 0.0
    else:
        kinetic = kinetic_energy(vel, mass)
        vel *= math.sqrt(config["virial_ratio"] * -potential_energy(pos, mass, eps2) / kinetic)
    return pos, vel, mass, f"uniform sphere, seed {config['seed']}"


def main():
    input_dir = Path(os.environ.get("GRIDFORGE_INPUT_DIR", "/input"))
    output_dir = Path(os.environ.get("GRIDFORGE_OUTPUT_DIR", "/output"))
    config = settings(read_params(input_dir))
    pos, vel, mass, origin = initial_conditions(config, input_dir)
    n, steps, dt = len(mass), config["steps"], config["dt"]
    eps2 = config["softening"] * config["softening"]
    half_dt = 0.5 * dt
    log(f"{n} bodies ({origin}), {steps} steps of {dt}, softening {config['softening']}")

    snapshots = output_dir / "snapshots"
    snapshots.mkdir(exist_ok=True)
    started = time.monotonic()
    energy0 = kinetic_energy(vel, mass) + potential_energy(pos, mass, eps2)
    worst = 0.0
    with (output_dir / "energy.csv").open("w", encoding="utf-8", newline="\n") as energy_file:
        energy_file.write("step,time,kinetic,potential,total,relative_error\n")

        def record(step):
            nonlocal worst
            kinetic, potential = kinetic_energy(vel, mass), potential_energy(pos, mass, eps2)
            total = kinetic + potential
            error = abs((total - energy0) / energy0)
            worst = max(worst, error)
            energy_file.write(f"{step},{step * dt!r},{kinetic!r},{potential!r},{total!r},{error!r}\n")
            np.save(snapshots / f"step_{step:08d}.npy", np.column_stack([pos, vel, mass]))
            return error

        record(0)
        acc = accelerations(pos, mass, eps2)
        for step in range(1, steps + 1):
            vel += half_dt * acc
            pos += dt * vel
            acc = accelerations(pos, mass, eps2)
            vel += half_dt * acc
            if step % config["snapshot_every"] == 0 or step == steps:
                error = record(step)
                elapsed = time.monotonic() - started
                log(f"step {step}/{steps}: relative energy error {error:.3e} ({elapsed:.1f} s)")

    summary = {
        "bodies": n,
        "initial_conditions": origin,
        "settings": config,
        "initial_energy": energy0,
        "max_relative_energy_error": worst,
        "numpy": np.__version__,
    }
    (output_dir / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    log(f"done in {time.monotonic() - started:.1f} s: max relative energy error {worst:.3e}")


if __name__ == "__main__":
    main()
