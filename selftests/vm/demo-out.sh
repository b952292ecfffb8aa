# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the demonstrations run in the VM: demo_out WHAT FILES... puts a
# demonstration's files where the user finds them: out of the VM over the
# files port when the harness gave one (selftests/vm/run copies them to
# build/demo/), else into build/demo/ of a writable tree, else /tmp.

demo_out()
{
	local what=$1 f

	shift
	if [ -n "${SLUICE_FILES_TTY:-}" ]; then
		for f in "$@"; do
			echo "sluice-file $f"
			base64 "$f"
			echo "sluice-file-end"
		done >"$SLUICE_FILES_TTY"
		echo "$what: build/demo/ (copied out of the VM when it ends)"
	elif mkdir -p "$REPO/build/demo" 2>/dev/null &&
	     cp "$@" "$REPO/build/demo/"; then
		echo "$what: $REPO/build/demo/"
	else
		cp "$@" /tmp/
		echo "$what: /tmp/"
	fi
}
