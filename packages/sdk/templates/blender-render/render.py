"""Renders the open .blend file with Cycles: run by render.sh inside Blender.

The output folder is the argument after `--`. Settings come from the
environment: CYCLES_DEVICE (CUDA or CPU), CYCLES_SAMPLES, RESOLUTION_PERCENT
and FRAMES ('' for the scene's frame range, '7' or '1-48').
"""

import json
import os
import sys
import time

import bpy


def log(message):
    print(f"[blender-render] {message}", flush=True)


def fail(message):
    print(f"[blender-render] {message}", file=sys.stderr, flush=True)
    sys.exit(2)


def env_int(name, default, low, high):
    value = os.environ.get(name, str(default))
    if not value.isdigit() or not low <= int(value) <= high:
        fail(f"{name}={value!r} is not a whole number from {low} to {high}")
    return int(value)


def frame_range(scene):
    value = os.environ.get("FRAMES", "").strip()
    if value == "":
        return scene.frame_start, scene.frame_end
    first, _, last = value.partition("-")
    if not first.isdigit() or not (last == "" or last.isdigit()):
        fail(f"FRAMES={value!r} is not like 7 or 1-48")
    start, end = int(first), int(last or first)
    if end < start or end - start >= 100_000:
        fail(f"FRAMES={value!r} is not a range of at most 100000 frames")
    return start, end


def use_device(scene, device):
    """Cycles on the GPUs of `device` (CUDA), or on the CPU."""
    if device == "CPU":
        scene.cycles.device = "CPU"
        return "CPU"
    preferences = bpy.context.preferences.addons["cycles"].preferences
    preferences.compute_device_type = device
    preferences.get_devices()
    gpus = [item for item in preferences.devices if item.type == device]
    if not gpus:
        fail(f"no {device} device is visible to Blender (is the task running with a GPU?)")
    for item in preferences.devices:
        item.use = item.type == device
    scene.cycles.device = "GPU"
    return ", ".join(item.name for item in gpus)


def main():
    output_dir = sys.argv[sys.argv.index("--") + 1]
    device = os.environ.get("CYCLES_DEVICE", "CUDA")
    if device not in ("CUDA", "CPU"):
        fail(f"CYCLES_DEVICE={device!r} is not CUDA or CPU")
    samples = env_int("CYCLES_SAMPLES", 128, 1, 1_000_000)
    percent = env_int("RESOLUTION_PERCENT", 100, 1, 100)

    scene = bpy.context.scene
    if scene.render.engine != "CYCLES":
        log(f"the scene uses {scene.render.engine}: rendering with Cycles instead")
    scene.render.engine = "CYCLES"
    devices = use_device(scene, device)
    scene.cycles.samples = samples
    scene.render.resolution_percentage = percent
    scene.render.image_settings.file_format = "PNG"
    start, end = frame_range(scene)
    width = scene.render.resolution_x * percent // 100
    height = scene.render.resolution_y * percent // 100
    log(f"frames {start}-{end}, {width}x{height}, {samples} samples on {devices}")

    frames = []
    for frame in range(start, end + 1):
        started = time.monotonic()
        scene.frame_set(frame)
        name = f"frame_{frame:06d}.png"
        scene.render.filepath = os.path.join(output_dir, "frames", name)
        bpy.ops.render.render(write_still=True)
        seconds = round(time.monotonic() - started, 3)
        frames.append({"frame": frame, "file": f"frames/{name}", "seconds": seconds})
        log(f"frame {frame} rendered in {seconds} s")

    summary = {
        "blender": bpy.app.version_string,
        "scene": scene.name,
        "device": devices,
        "samples": samples,
        "resolution": [width, height],
        "frames": frames,
    }
    with open(os.path.join(output_dir, "render.json"), "w", encoding="utf-8") as file:
        json.dump(summary, file, indent=2)
        file.write("\n")
    log(f"done: {len(frames)} frame(s)")


main()
