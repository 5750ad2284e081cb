"""Gridforge source: fine-tunes an ImageNet-pretrained ResNet-18 on the task's images.

Reads an ImageFolder tree from $GRIDFORGE_INPUT_DIR (train/<class>/…, optional
val/<class>/…, optional params.json) and writes model.pt, classes.json,
metrics.csv and summary.json to $GRIDFORGE_OUTPUT_DIR. The pretrained weights
were downloaded into $TORCH_HOME when the image was built.
"""

import csv
import json
import math
import os
import sys
import time
from contextlib import nullcontext
from pathlib import Path

import torch
from torch import nn
from torch.utils.data import DataLoader, Subset
from torchvision import datasets, transforms
from torchvision.models import ResNet18_Weights, resnet18

SETTINGS = {
    # name: (environment variable, type, lowest, highest)
    "epochs": ("EPOCHS", int, 1, 1000),
    "batch_size": ("BATCH_SIZE", int, 1, 4096),
    "learning_rate": ("LEARNING_RATE", float, 1e-7, 1.0),
    "weight_decay": ("WEIGHT_DECAY", float, 0.0, 1.0),
    "val_fraction": ("VAL_FRACTION", float, 0.0, 0.9),
    "num_workers": ("NUM_WORKERS", int, 0, 64),
    "seed": ("SEED", int, 0, 2**32 - 1),
}
MEAN, STD = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]


def log(message):
    print(f"[pytorch-training] {message}", flush=True)


def settings(input_dir):
    """The environment's defaults, overridden by the task's params.json."""
    overrides = {}
    params = input_dir / "params.json"
    if params.is_file():
        try:
            overrides = json.loads(params.read_text(encoding="utf-8"))
        except ValueError as error:
            sys.exit(f"params.json is not JSON: {error}")
        if not isinstance(overrides, dict):
            sys.exit("params.json must be an object, like {\"epochs\": 5}")
        unknown = set(overrides) - set(SETTINGS)
        if unknown:
            sys.exit(f"params.json: unknown settings {sorted(unknown)} (known: {sorted(SETTINGS)})")
    values = {}
    for name, (variable, kind, low, high) in SETTINGS.items():
        raw = overrides.get(name, os.environ.get(variable))
        if raw is None:
            sys.exit(f"{variable} is not set")
        try:
            value = kind(raw)
        except (TypeError, ValueError):
            sys.exit(f"{name}={raw!r} is not a {kind.__name__}")
        if not (low <= value <= high) or (kind is float and not math.isfinite(value)):
            sys.exit(f"{name}={value} is not between {low} and {high}")
        values[name] = value
    return values


def datasets_of(input_dir, config, generator):
    """The training and validation sets, and the class names."""
    train_tf = transforms.Compose(
        [
            transforms.RandomResizedCrop(224),
            transforms.RandomHorizontalFlip(),
            transforms.ToTensor(),
            transforms.Normalize(MEAN, STD),
        ]
    )
    eval_tf = transforms.Compose(
        [transforms.Resize(256), transforms.CenterCrop(224), transforms.ToTensor(), transforms.Normalize(MEAN, STD)]
    )
    if (input_dir / "train").is_dir():
        train = datasets.ImageFolder(input_dir / "train", transform=train_tf)
        if not (input_dir / "val").is_dir():
            return train, None, train.classes
        val = datasets.ImageFolder(input_dir / "val", transform=eval_tf)
        if val.classes != train.classes:
            sys.exit(f"val/ has the classes {val.classes}, train/ has {train.classes}: they must be the same")
        return train, val, train.classes
    # Class folders at the top: hold out val_fraction of the images.
    train_view = datasets.ImageFolder(input_dir, transform=train_tf)
    eval_view = datasets.ImageFolder(input_dir, transform=eval_tf)
    order = torch.randperm(len(train_view), generator=generator).tolist()
    held_out = int(len(order) * config["val_fraction"])
    if held_out == 0:
        return train_view, None, train_view.classes
    return Subset(train_view, order[held_out:]), Subset(eval_view, order[:held_out]), train_view.classes


def grad_scaler(enabled):
    if hasattr(torch.amp, "GradScaler"):  # torch >= 2.3
        return torch.amp.GradScaler("cuda", enabled=enabled)
    return torch.cuda.amp.GradScaler(enabled=enabled)


def run_epoch(model, loader, device, amp, optimizer=None, scaler=None):
    """One pass over `loader`; trains when an optimizer is given. Returns (mean loss, accuracy)."""
    training = optimizer is not None
    model.train(training)
    loss_fn = nn.CrossEntropyLoss()
    total_loss, correct, seen = 0.0, 0, 0
    with torch.set_grad_enabled(training):
        for images, labels in loader:
            images = images.to(device, non_blocking=True)
            labels = labels.to(device, non_blocking=True)
            with torch.autocast(device_type="cuda", dtype=torch.float16) if amp else nullcontext():
                logits = model(images)
                loss = loss_fn(logits, labels)
            if training:
                optimizer.zero_grad(set_to_none=True)
                scaler.scale(loss).backward()
                scaler.step(optimizer)
                scaler.update()
            total_loss += loss.item() * labels.size(0)
            correct += (logits.argmax(dim=1) == labels).sum().item()
            seen += labels.size(0)
    return total_loss / max(seen, 1), correct / max(seen, 1)


def main():
    input_dir = Path(os.environ.get("GRIDFORGE_INPUT_DIR", "/input"))
    output_dir = Path(os.environ.get("GRIDFORGE_OUTPUT_DIR", "/output"))
    if (input_dir / "input").is_file():
        sys.exit("the input is one file: this source needs a folder (train/<class>/<images>, …)")
    config = settings(input_dir)
    torch.manual_seed(config["seed"])
    generator = torch.Generator().manual_seed(config["seed"])

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    amp = device.type == "cuda"
    log(f"device: {torch.cuda.get_device_name(device) if amp else 'cpu (no CUDA device is visible)'}")
    if amp:
        torch.backends.cudnn.benchmark = True

    try:
        train_set, val_set, classes = datasets_of(input_dir, config, generator)
    except (FileNotFoundError, RuntimeError) as error:  # ImageFolder: no class folders, or no images
        sys.exit(f"cannot read the images: {error}")
    if len(classes) < 2:
        sys.exit(f"found {len(classes)} class folder(s): a classifier needs at least 2")
    log(
        f"{len(train_set)} training and {0 if val_set is None else len(val_set)} validation images, "
        f"{len(classes)} classes; {config}"
    )

    loader_args = {"batch_size": config["batch_size"], "num_workers": config["num_workers"], "pin_memory": amp}
    train_loader = DataLoader(train_set, shuffle=True, drop_last=False, generator=generator, **loader_args)
    val_loader = None if val_set is None else DataLoader(val_set, shuffle=False, **loader_args)

    try:
        model = resnet18(weights=ResNet18_Weights.IMAGENET1K_V1)
    except Exception as error:  # a missing $TORCH_HOME cache turns into a download, which fails offline
        sys.exit(f"cannot load the ResNet-18 weights from {os.environ.get('TORCH_HOME')}: {error}")
    model.fc = nn.Linear(model.fc.in_features, len(classes))
    model.to(device)
    optimizer = torch.optim.AdamW(
        model.parameters(), lr=config["learning_rate"], weight_decay=config["weight_decay"]
    )
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=config["epochs"])
    scaler = grad_scaler(amp)

    started = time.monotonic()
    best = {"epoch": 0, "val_accuracy": -1.0}
    with (output_dir / "metrics.csv").open("w", newline="", encoding="utf-8") as metrics_file:
        metrics = csv.writer(metrics_file)
        metrics.writerow(["epoch", "train_loss", "train_accuracy", "val_loss", "val_accuracy", "learning_rate"])
        for epoch in range(1, config["epochs"] + 1):
            epoch_started = time.monotonic()
            rate = schedule.get_last_lr()[0]
            train_loss, train_accuracy = run_epoch(model, train_loader, device, amp, optimizer, scaler)
            schedule.step()
            if val_loader is None:
                val_loss, val_accuracy = float("nan"), float("nan")
            else:
                val_loss, val_accuracy = run_epoch(model, val_loader, device, amp)
            metrics.writerow(
                [epoch, f"{train_loss:.6f}", f"{train_accuracy:.6f}", f"{val_loss:.6f}", f"{val_accuracy:.6f}", f"{rate:.8g}"]
            )
            metrics_file.flush()
            log(
                f"epoch {epoch}/{config['epochs']}: train loss {train_loss:.4f} accuracy {train_accuracy:.4f}, "
                f"val loss {val_loss:.4f} accuracy {val_accuracy:.4f} ({time.monotonic() - epoch_started:.1f} s)"
            )
            # Without validation images the last epoch's model is kept.
            if val_loader is None or val_accuracy > best["val_accuracy"]:
                best = {"epoch": epoch, "val_accuracy": val_accuracy}
                state = {name: tensor.detach().cpu().clone() for name, tensor in model.state_dict().items()}
                torch.save({"arch": "resnet18", "classes": classes, "state_dict": state}, output_dir / "model.pt")

    (output_dir / "classes.json").write_text(json.dumps(classes, indent=2) + "\n", encoding="utf-8")
    summary = {
        "arch": "resnet18",
        "pretrained": "IMAGENET1K_V1",
        "device": torch.cuda.get_device_name(device) if amp else "cpu",
        "settings": config,
        "classes": len(classes),
        "train_images": len(train_set),
        "val_images": 0 if val_set is None else len(val_set),
        "best_epoch": best["epoch"],
        "best_val_accuracy": None if val_loader is None else best["val_accuracy"],
        "seconds": round(time.monotonic() - started, 3),
    }
    (output_dir / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    if val_loader is None:
        log(f"done: no validation images, model.pt is the model after epoch {best['epoch']}")
    else:
        log(f"done: best validation accuracy {best['val_accuracy']:.4f} at epoch {best['epoch']}, in model.pt")


if __name__ == "__main__":
    main()
