"""Gridforge source: runs the task's Jupyter notebook with papermill.

The notebook is the single input file ($GRIDFORGE_INPUT_DIR/input) or, in a
folder, notebook.ipynb (or the only .ipynb at its top), with parameters from
parameters.json beside it. papermill injects them, plus `input_dir` and
`output_dir`, after the cell tagged `parameters`, and runs every cell with the
working directory in $GRIDFORGE_OUTPUT_DIR, so files the notebook writes
there are part of the output. The executed notebook is written as
executed.ipynb, and as report.html unless REPORT=none.
"""

import json
import os
import shutil
import sys
import time
from pathlib import Path

import papermill


def log(message):
    print(f"[jupyter-papermill] {message}", flush=True)


def find_notebook(input_dir):
    single = input_dir / "input"
    if single.is_file():
        # papermill wants the .ipynb extension: copy the file to /tmp (a writable tmpfs) under that name.
        copy = Path("/tmp/gridforge-notebook/notebook.ipynb")
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(single, copy)
        return copy, "input"
    named = input_dir / "notebook.ipynb"
    if named.is_file():
        return named, named.name
    found = sorted(input_dir.glob("*.ipynb"))
    if len(found) != 1:
        sys.exit(f"expected notebook.ipynb or one .ipynb file at the top of the input, found {len(found)}")
    return found[0], found[0].name


def read_parameters(input_dir):
    path = input_dir / "parameters.json"
    if not path.is_file():
        return {}
    try:
        parameters = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as error:
        sys.exit(f"parameters.json is not JSON: {error}")
    if not isinstance(parameters, dict):
        sys.exit('parameters.json must be a JSON object, like {"year": 2024}')
    return parameters


def main():
    input_dir = Path(os.environ.get("GRIDFORGE_INPUT_DIR", "/input"))
    output_dir = Path(os.environ.get("GRIDFORGE_OUTPUT_DIR", "/output"))
    report = os.environ.get("REPORT", "html")
    if report not in ("html", "none"):
        sys.exit(f"REPORT={report!r} is not html or none")
    cell_timeout = os.environ.get("CELL_TIMEOUT_SEC", "0")
    if not cell_timeout.isdigit():
        sys.exit(f"CELL_TIMEOUT_SEC={cell_timeout!r} is not a whole number of seconds")

    notebook, name = find_notebook(input_dir)
    parameters = {**read_parameters(input_dir), "input_dir": str(input_dir), "output_dir": str(output_dir)}
    executed = output_dir / "executed.ipynb"
    log(f"running {name} with parameters {sorted(parameters)}")

    started = time.monotonic()
    failed = None
    try:
        papermill.execute_notebook(
            str(notebook),
            str(executed),
            parameters=parameters,
            kernel_name="python3",
            cwd=str(output_dir),
            log_output=True,
            progress_bar=False,
            execution_timeout=int(cell_timeout) or None,
        )
    except papermill.PapermillExecutionError as error:
        # papermill has written the notebook up to the failing cell, with its traceback.
        failed = f"cell {error.exec_count} raised {error.ename}: {error.evalue}"
    log(f"{'failed' if failed else 'finished'} in {time.monotonic() - started:.1f} s")

    if report == "html" and executed.is_file():
        from nbconvert import HTMLExporter

        body, _ = HTMLExporter().from_filename(str(executed))
        (output_dir / "report.html").write_text(body, encoding="utf-8")
        log("wrote report.html")
    if failed:
        sys.exit(f"the notebook failed: {failed}")


if __name__ == "__main__":
    main()
