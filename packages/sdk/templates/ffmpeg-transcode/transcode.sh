#!/usr/bin/env bash
# Gridforge source: transcodes every video of the task's input to MP4 (H.264 or
# H.265 video, AAC audio) with ffmpeg. A single input file arrives as
# $GRIDFORGE_INPUT_DIR/input; a folder as its tree, which the output mirrors.
set -euo pipefail
shopt -s nullglob

input_dir="${GRIDFORGE_INPUT_DIR:-/input}"
output_dir="${GRIDFORGE_OUTPUT_DIR:-/output}"
video_codec="${VIDEO_CODEC:-libx264}"
crf="${CRF:-23}"
preset="${PRESET:-medium}"
max_height="${MAX_HEIGHT:-1080}"
audio_bitrate="${AUDIO_BITRATE:-128k}"

log() { printf '[ffmpeg-transcode] %s\n' "$*"; }
fail() { printf '[ffmpeg-transcode] %s\n' "$*" >&2; exit 2; }

case "$video_codec" in libx264 | libx265) ;; *) fail "VIDEO_CODEC=$video_codec is not libx264 or libx265" ;; esac
[[ "$crf" =~ ^[0-9]{1,2}$ ]] && ((10#$crf <= 51)) || fail "CRF=$crf is not a whole number from 0 to 51"
[[ "$max_height" =~ ^[0-9]{1,5}$ ]] && ((10#$max_height >= 16)) || fail "MAX_HEIGHT=$max_height is not a whole number of at least 16"
[[ "$audio_bitrate" =~ ^[0-9]+k$ ]] || fail "AUDIO_BITRATE=$audio_bitrate is not like 128k"
case "$preset" in
  ultrafast | superfast | veryfast | faster | fast | medium | slow | slower | veryslow) ;;
  *) fail "PRESET=$preset is not an x264/x265 preset" ;;
esac

# Every regular file of the input that has a video stream (ffprobe decides, not the extension);
# still images (which ffmpeg reads as one-frame videos) are skipped.
videos=()
while IFS= read -r -d '' file; do
  stream="$(ffprobe -v error -select_streams v:0 -show_entries stream=codec_type -of csv=p=0 "$file" 2>/dev/null || true)"
  format="$(ffprobe -v error -show_entries format=format_name -of csv=p=0 "$file" 2>/dev/null || true)"
  if [[ -z "$stream" ]]; then
    log "skipping ${file#"$input_dir"/}: no video stream"
  elif [[ "$format" == image2 || "$format" == *_pipe ]]; then
    log "skipping ${file#"$input_dir"/}: a still image ($format)"
  else
    videos+=("$file")
  fi
done < <(find "$input_dir" -type f -print0 | sort -z)
((${#videos[@]} > 0)) || fail "no video files in the input"
log "${#videos[@]} video(s): $video_codec crf $crf preset $preset, at most ${max_height}p, AAC $audio_bitrate"

# H.265: tagged hvc1 (what Apple players expect), and x265's own log kept to errors.
codec_args=(-c:v "$video_codec" -crf "$crf" -preset "$preset" -pix_fmt yuv420p)
if [[ "$video_codec" == libx265 ]]; then codec_args+=(-tag:v hvc1 -x265-params log-level=error); fi

failed=0
for file in "${videos[@]}"; do
  relative="${file#"$input_dir"/}"
  target="$output_dir/${relative%.*}.mp4"
  mkdir -p "$(dirname "$target")"
  started=$SECONDS
  # The first video and audio streams; scaled down only (never up), keeping the aspect ratio and an even width.
  if ffmpeg -nostdin -hide_banner -loglevel error -y -i "$file" \
    -map 0:v:0 -map '0:a:0?' \
    -vf "scale=-2:'min(ih,$max_height)'" \
    "${codec_args[@]}" \
    -c:a aac -b:a "$audio_bitrate" \
    -movflags +faststart "$target"; then
    ffprobe -v error -print_format json -show_format -show_streams "$target" >"${target%.mp4}.probe.json"
    log "transcoded $relative -> ${target#"$output_dir"/} in $((SECONDS - started)) s ($(stat -c %s "$target") bytes)"
  else
    log "FAILED $relative"
    rm -f "$target"
    failed=$((failed + 1))
  fi
done

if ((failed > 0)); then
  printf '[ffmpeg-transcode] %d of %d video(s) failed\n' "$failed" "${#videos[@]}" >&2
  exit 1
fi
log "done: ${#videos[@]} video(s)"
