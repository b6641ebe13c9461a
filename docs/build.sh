#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the Sphinx site: sh docs/build.sh OUTDIR  (make docs uses build/docs).
#
# Uses Debian's /usr/bin/python3 with Debian's python3-sphinx (PyPI is not
# needed).  If Sphinx is missing it is installed with apt-get (as root, or
# through sudo when available).  Warnings are errors, and the build fails on
# any public symbol of the headers that has no doc comment.
out=${1:-build/docs}
case $out in /*) ;; *) out=$(pwd)/$out ;; esac     # relative to the caller
cd "$(dirname "$0")/.." || exit 2
py=/usr/bin/python3

if [ ! -x "$py" ]; then
    echo "docs: $py not found; install Debian's python3 and python3-sphinx" >&2
    exit 1
fi

if ! "$py" -c 'import sphinx' >/dev/null 2>&1; then
    echo "docs: Sphinx is not installed for $py; installing python3-sphinx with apt-get"
    if [ "$(id -u)" -eq 0 ]; then sudo=""
    elif command -v sudo >/dev/null 2>&1; then sudo="sudo"
    else
        echo "docs: not root and no sudo: run 'apt-get install python3-sphinx' as root, then 'make docs'" >&2
        exit 1
    fi
    if ! { $sudo apt-get update && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y python3-sphinx; }; then
        echo "docs: could not install python3-sphinx with apt-get; install it by hand, then 'make docs'" >&2
        exit 1
    fi
    if ! "$py" -c 'import sphinx' >/dev/null 2>&1; then
        echo "docs: python3-sphinx was installed but $py still cannot import sphinx" >&2
        exit 1
    fi
fi

# -E: read every page again, so that every warning is reported on every run.
exec "$py" -B -m sphinx -E -W --keep-going -b html -d "$out/.doctrees" docs "$out"
