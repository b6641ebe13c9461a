#!/bin/sh
# SPDX-License-Identifier: MIT
# The 1280-pixel check of make docs: open the built results page in
# headless Chromium in a 1280 px wide frame, and fail if a fidelity table
# (class "fidelity") or the page itself is wider than the frame, so that
# the verdict column can always be seen.  Also writes a screenshot of the
# page at that width, OUTDIR/_check/results-1280.png, for a look by eye.
#
#   sh docs/check_width.sh OUTDIR     (make docs: OUTDIR is build/docs)
out=${1:-build/docs}
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
width=1280
browser=$(command -v chromium || command -v chromium-browser) || {
    echo "check_width: chromium not found (Debian's chromium)" >&2; exit 1; }
[ -f "$out/results.html" ] || { echo "check_width: $out/results.html missing (build the docs first)" >&2; exit 1; }
mkdir -p "$out/_check"
cat > "$out/_check/width.html" <<HTML
<!DOCTYPE html><html><body style="margin:0">
<iframe id="f" src="../results.html" style="width:${width}px;height:900px;border:0"></iframe>
<script>
document.getElementById("f").onload = function () {
  var d = this.contentDocument, out = [], tabs = d.querySelectorAll("table.fidelity");
  for (var i = 0; i < tabs.length; i++)
    out.push("fidelity-table " + i + " " + Math.ceil(tabs[i].getBoundingClientRect().right));
  out.push("page " + d.documentElement.scrollWidth);
  var p = document.createElement("pre"); p.id = "result"; p.textContent = out.join("\n");
  document.body.appendChild(p);
};
</script></body></html>
HTML
flags="--headless --no-sandbox --disable-gpu --hide-scrollbars"
# shellcheck disable=SC2086
res=$(timeout 120 "$browser" $flags --allow-file-access-from-files --virtual-time-budget=10000 \
      --dump-dom "file://$out/_check/width.html" 2>/dev/null | sed -n '/<pre id="result">/,/<\/pre>/p' |
      sed 's/<[^>]*>//g')
# shellcheck disable=SC2086
timeout 120 "$browser" $flags --window-size=$width,6000 --screenshot="$out/_check/results-1280.png" \
    "file://$out/results.html" >/dev/null 2>&1
if [ -z "$res" ]; then echo "check_width: Chromium gave no measurement of $out/results.html" >&2; exit 1; fi
tables=$(echo "$res" | grep -c '^fidelity-table')
bad=$(echo "$res" | awk -v w=$width '$NF > w')
if [ "$tables" -eq 0 ]; then echo "check_width: no fidelity table on results.html" >&2; exit 1; fi
if [ -n "$bad" ]; then
    echo "check_width: wider than $width px on results.html:" >&2; echo "$bad" | sed 's/^/    /' >&2; exit 1
fi
echo "check_width: results.html fits $width px ($tables fidelity tables; screenshot $out/_check/results-1280.png)"
