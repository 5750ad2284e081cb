"""Gridforge source: classifies images with a pretrained ResNet-50.

Reads images from $GRIDFORGE_INPUT_DIR (a single file arrives as `input`, a
folder as its tree) and writes predictions.jsonl and summary.json to
$GRIDFORGE_OUTPUT_DIR. The weights were downloaded into $TORCH_HOME when the
image was built: tasks run without a network.
"""

import json
import os
import sys
import time
from contextlib import nullcontext
from pathlib import Path

import torch
from PIL import Image
from torchvision.models import ResNet50_Weights, resnet50

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".bmp"}


def log(message):
    print(f"[pytorch-inference] {message}", flush=True)


def env_int(name, default, low, high):
    value = os.environ.get(name, str(default))
    try:
        number = int(value)
    except ValueError:
        sys.exit(f"{name}={value!r} is not a whole number")
    if not low <= number <= high:
        sys.exit(f"{name}={number} is not between {low} and {high}")
    return number


def find_images(input_dir):
    """The images of the task: the single input file, or every image file under the folder."""
    single = input_dir / "input"
    if single.is_file() and [entry.name for entry in input_dir.iterdir()] == ["input"]:
        return [single]  # a file input has no extension: Pillow reads its header
    return sorted(
        path for path in input_dir.rglob("*") if path.is_file() and path.suffix.lower() in IMAGE_SUFFIXES
    )


def main():
    input_dir = Path(os.environ.get("GRIDFORGE_INPUT_DIR", "/input"))
    output_dir = Path(os.environ.get("GRIDFORGE_OUTPUT_DIR", "/output"))
    top_k = env_int("TOP_K", 5, 1, 1000)
    batch_size = env_int("BATCH_SIZE", 64, 1, 4096)
    precision = os.environ.get("PRECISION", "fp16")
    if precision not in ("fp16", "fp32"):
        sys.exit(f"PRECISION={precision!r} is not fp16 or fp32")

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if device.type == "cuda":
        log(f"device: {torch.cuda.get_device_name(device)}")
    else:
        log("no CUDA device is visible: running on the CPU")
    autocast = device.type == "cuda" and precision == "fp16"

    weights = ResNet50_Weights.IMAGENET1K_V2
    try:
        model = resnet50(weights=weights).eval().to(device)
    except Exception as error:  # a missing $TORCH_HOME cache turns into a download, which fails offline
        sys.exit(f"cannot load the ResNet-50 weights from {os.environ.get('TORCH_HOME')}: {error}")
    preprocess = weights.transforms()
    categories = weights.meta["categories"]

    images = find_images(input_dir)
    if not images:
        sys.exit(f"no images in {input_dir} (expected {', '.join(sorted(IMAGE_SUFFIXES))} files)")
    log(f"classifying {len(images)} images, batches of {batch_size}, top {top_k}")

    started = time.monotonic()
    skipped = []
    written = 0
    with (output_dir / "predictions.jsonl").open("w", encoding="utf-8") as predictions:
        for start in range(0, len(images), batch_size):
            batch, names = [], []
            for path in images[start : start + batch_size]:
                name = path.relative_to(input_dir).as_posix()
                try:
                    with Image.open(path) as image:
                        batch.append(preprocess(image.convert("RGB")))
                    names.append(name)
                except Exception as error:  # not an image, truncated, unsupported mode, …
                    skipped.append({"file": name, "error": str(error)})
            if not batch:
                continue
            with torch.inference_mode(), (
                torch.autocast(device_type="cuda", dtype=torch.float16) if autocast else nullcontext()
            ):
                logits = model(torch.stack(batch).to(device))
            probabilities = logits.float().softmax(dim=1)
            values, indices = probabilities.topk(min(top_k, len(categories)), dim=1)
            for name, row_values, row_indices in zip(names, values.tolist(), indices.tolist()):
                top = [
                    {"label": categories[index], "index": index, "probability": round(value, 6)}
                    for value, index in zip(row_values, row_indices)
                ]
                predictions.write(json.dumps({"file": name, "top": top}) + "\n")
                written += 1
            log(f"{min(start + batch_size, len(images))}/{len(images)} images")

    summary = {
        "model": "resnet50",
        "weights": "IMAGENET1K_V2",
        "device": torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu",
        "precision": precision if device.type == "cuda" else "fp32",
        "images": written,
        "skipped": skipped,
        "seconds": round(time.monotonic() - started, 3),
    }
    (output_dir / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    log(f"classified {written} images, skipped {len(skipped)}, in {summary['seconds']} s")
    if written == 0:
        sys.exit("none of the input files could be read as an image")


if __name__ == "__main__":
    main()
