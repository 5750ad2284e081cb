#!/usr/bin/env bash
# Gridforge source: renders the task's .blend file with Blender's Cycles. A
# single input file (the .blend) arrives as $GRIDFORGE_INPUT_DIR/input; a
# folder (the .blend with its textures) as its tree. render.py, run inside
# Blender, renders the frames into $GRIDFORGE_OUTPUT_DIR/frames.
set -euo pipefail
shopt -s nullglob

input_dir="${GRIDFORGE_INPUT_DIR:-/input}"
output_dir="${GRIDFORGE_OUTPUT_DIR:-/output}"
blender="${BLENDER:-/opt/blender/blender}"

if [[ -f "$input_dir/input" ]]; then
  scene="$input_dir/input"
else
  candidates=("$input_dir"/*.blend)
  if ((${#candidates[@]} == 1)); then
    scene="${candidates[0]}"
  elif [[ -f "$input_dir/scene.blend" ]]; then
    scene="$input_dir/scene.blend"
  else
    printf '[blender-render] expected one .blend file at the top of the input (or scene.blend), found %d\n' \
      "${#candidates[@]}" >&2
    exit 2
  fi
fi
printf '[blender-render] rendering %s\n' "${scene#"$input_dir"/}"

# --factory-startup: no user preferences; --disable-autoexec: Python scripts in the
# .blend (a stranger's file) do not run; --python-exit-code: an error in render.py fails the task.
exec "$blender" --background --factory-startup --disable-autoexec "$scene" \
  --python-exit-code 1 --python /app/render.py -- "$output_dir"
