#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The manual pages: groff formats each without a warning (-ww) and man
# renders each; tc-sluice(8) names every option the tc plugin's parser takes
# (its keyword tables in lib/qopt.c and the maps' names in lib/tag.c), and
# each sluicectl command's page names every command, subcommand and option
# the program's own --help shows, as bold words; the help in turn shows
# every option the command's sources spell, so that pages, help and parsers
# cannot drift apart; sluice-flowgen(8) names every option of the
# program's --help and of its option table; "make install-man" installs
# every page.
#
# Run by run-ktap without its wrapper, from userspace/ (SLUICECTL and
# FLOWGEN are the binaries, relative to there).

set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/ktap.sh"
ctl=${SLUICECTL:-$here/userspace/sluicectl/sluicectl}
flowgen=${FLOWGEN:-$here/userspace/flowgen/sluice-flowgen}
man=$here/man
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

ktap_plan 9

warn=""
for page in "$man"/*.[1-8]; do
	out=$(groff -man -ww -z "$page" 2>&1) || out="$out (exit $?)"
	[ -z "$out" ] || warn="$warn${page##*/}: $out
"
done
[ -z "$warn" ]
result $? groff_clean "$warn"

# What man(1) shows: the page's title line and a NAME section.
bad=""
for page in "$man"/*.[1-8]; do
	title=$(sed -n 's/^\.TH \([^ ]*\) \([0-9]\).*/\1(\2)/p' "$page")
	out=$(MANWIDTH=80 LC_ALL=C man -l "$page" 2>&1) &&
		printf '%s\n' "$out" | grep -q "^$title " &&
		printf '%s\n' "$out" | grep -q '^NAME$' ||
		bad="$bad ${page##*/}"
done
[ -z "$bad" ]
result $? man_renders "man -l fails on:$bad"

# The bold words of a page, one a line: those on a .B, .BI, .BR, .IB or .RB
# line and those in \fB...\fR, with \- read as - (options as they are
# typed).  Words are runs of letters, digits, "_" and "-".
bold_words() {
	sed 's/\\-/-/g' "$1" > "$tmp/page"
	{ grep -E '^\.(B|BI|BR|IB|RB) ' "$tmp/page"
	  sed 's/\\fB/\n\\fB/g' "$tmp/page" | sed -n 's/^\\fB\([^\\]*\)\\f[RP].*/\1/p'; } |
		sed 's/^\.[A-Z]* //; s/\\f[BIRP]/ /g' | tr -cs 'A-Za-z0-9_-' '\n' |
		sort -u
}

# missing KEYED-WORDS: the "KEY WORD" lines whose WORD is not among the
# bold words of KEY's page, $tmp/bold.KEY.
missing() {
	awk -v dir="$tmp" '{
		file = dir "/bold." $1
		if (!(file in seen)) {
			seen[file] = 1
			while ((getline w < file) > 0)
				bold[$1, w] = 1
		}
		if (!(($1, $2) in bold))
			printf " %s:%s", $1, $2
	}' "$1"
}

bold_words "$man/tc-sluice.8" > "$tmp/bold.tc"
{ sed -n 's/^	{ "\([a-z-]*\)",.*/tc \1/p' "$here/userspace/lib/qopt.c"
  sed -n 's/.*\.map_name[[:space:]]*= "\([a-z-]*\)".*/tc \1/p' \
	"$here/userspace/lib/tag.c"; } | sort -u > "$tmp/tc.want"
count=$(wc -l < "$tmp/tc.want")
lost=$(missing "$tmp/tc.want")
[ -z "$lost" ] && [ "$count" -ge 30 ]
result $? tc_sluice_options "not in tc-sluice(8):$lost ($count options read)"

# The options a help text names: words of one or two dashes and a letter.
opts_of() {
	grep -oE '(^|[^A-Za-z0-9_-])--?[a-z][a-z0-9-]*' | sed 's/^[^-]*//'
}

# The words a help text lists under "Commands:" or "Families:".
subs_of() {
	awk '/^(Commands|Families):$/ { on = 1; next }
	     on && /^  [a-z]/ { print $1; next }
	     { on = 0 }'
}

# walk CMD WORDS...: "sluicectl WORDS --help" and, for each command or
# family it lists, the same one level down.  Appends the help to
# $tmp/help.CMD and "CMD WORD" to $tmp/want for each option and listed word.
walk() {
	local cmd=$1 out sub
	shift
	if ! out=$("$ctl" "$@" --help 2>&1); then
		echo "sluicectl $* --help failed: $out" >> "$tmp/failed"
		return
	fi
	printf '%s\n' "$out" >> "$tmp/help.$cmd"
	printf '%s\n' "$out" | opts_of | sed "s/^/$cmd /" >> "$tmp/want"
	for sub in $(printf '%s\n' "$out" | subs_of); do
		echo "$cmd $sub" >> "$tmp/want"
		walk "$cmd" "$@" "$sub"
	done
}

: > "$tmp/want"
: > "$tmp/failed"
top=$("$ctl" --help)
printf '%s\n' "$top" > "$tmp/help.main"
printf '%s\n' "$top" | opts_of | sed 's/^/main /' >> "$tmp/want"
commands=$(printf '%s\n' "$top" | subs_of)
for c in $commands; do
	echo "main $c" >> "$tmp/want"
	"$ctl" help "$c" > "$tmp/help.$c" 2>&1 ||
		echo "sluicectl help $c failed" >> "$tmp/failed"
	opts_of < "$tmp/help.$c" | sed "s/^/$c /" >> "$tmp/want"
	walk "$c" "$c"
done
cat "$tmp"/help.* > "$tmp/help.all"

# Each command's words are looked up in its page, sluicectl-CMD.8, or in
# sluicectl.8 for those without one of their own ("main": the global
# options and the commands).
bold_words "$man/sluicectl.8" > "$tmp/bold.main"
for c in $commands; do
	if [ -f "$man/sluicectl-$c.8" ]; then
		bold_words "$man/sluicectl-$c.8" > "$tmp/bold.$c"
	else
		cp "$tmp/bold.main" "$tmp/bold.$c"
	fi
done

# Every command's page is among those sluicectl(8) points to, and every
# sluicectl-*.8 is a command's page.
bad=""
for c in $commands; do
	[ ! -f "$man/sluicectl-$c.8" ] ||
		grep -Eq "^\\.BR sluicectl-$c \\(8\\)" "$man/sluicectl.8" ||
		bad="$bad $c:not-in-sluicectl(8)"
done
for p in "$man"/sluicectl-*.8; do
	c=${p##*/sluicectl-}
	c=${c%.8}
	printf '%s\n' $commands | grep -qx "$c" || bad="$bad ${p##*/}:no-such-command"
done
[ -z "$bad" ] && [ -n "$commands" ]
result $? sluicectl_pages "$bad"

# Every word the help trees list is bold in its command's page.
sort -u "$tmp/want" > "$tmp/want.u"
count=$(wc -l < "$tmp/want.u")
lost=$(missing "$tmp/want.u")
[ -z "$lost" ] && [ ! -s "$tmp/failed" ] && [ "$count" -ge 200 ]
result $? sluicectl_options "not in their pages:$lost ($count words read)" \
	"$(cat "$tmp/failed")"

# A group's usage line in "sluicectl help GROUP" lists all its commands.
lost=""
for c in $commands; do
	usage=$(head -1 "$tmp/help.$c")
	for sub in $("$ctl" "$c" --help 2>/dev/null | subs_of); do
		printf '%s\n' "$usage" | grep -Eq "[{|] $sub( |\$)" ||
			lost="$lost $c:$sub"
	done
done
[ -z "$lost" ]
result $? group_usages "not in \"sluicectl help GROUP\":$lost"

# Every option a command's sources spell ("--topo", "-o") is in that
# command's help: sluicectl/NAME.c and NAME_*.c are command NAME's, the
# other files' options may be in any help.  An option is its spellings
# within one "{ ... }" of an option table (or on one line): the help names
# it if it shows one of them ("-o FILE" for { "--output", "-o", true }).
# -h and --help are every command's (sluicectl(8)).
lost=""
: > "$tmp/count"
for f in "$here"/userspace/sluicectl/*.[ch]; do
	c=${f##*/}
	c=${c%%[._]*}
	help="$tmp/help.$c"
	[ -f "$help" ] || help="$tmp/help.all"
	opts_of < "$help" | sort -u > "$tmp/known"
	lost="$lost$(grep -E '"--?[a-z][a-z0-9-]*"' "$f" |
		awk -v f="${f##*/}" -v counts="$tmp/count" '
		FILENAME == ARGV[1] { known[$0] = 1; next }
		{
			gsub(/\\"/, "")
			n_opt = split($0, opt, "}")
			for (o = 1; o <= n_opt; o++) {
				n_q = split(opt[o], q, "\"")
				n = named = 0
				spelt = ""
				for (i = 2; i <= n_q; i += 2) {
					if (q[i] !~ /^--?[a-z][a-z0-9-]*$/ ||
					    q[i] == "-h" || q[i] == "--help")
						continue
					spelt = spelt (n++ ? "/" : "") q[i]
					named = named || (q[i] in known)
				}
				count += n > 0
				if (n && !named)
					printf " %s:%s", f, spelt
			}
		}
		END { print count + 0 >> counts }' "$tmp/known" -)"
done
count=$(awk '{ n += $1 } END { print n + 0 }' "$tmp/count")
[ -z "$lost" ] && [ "$count" -ge 200 ]
result $? help_names_every_option "not in their command's --help:$lost ($count read)"

# sluice-flowgen(8) names every option its --help shows and every long
# option of its parser's table.
bold_words "$man/sluice-flowgen.8" > "$tmp/bold.flowgen"
{ "$flowgen" --help 2>&1 | opts_of
  sed -n 's/^	{ "\([a-z-]*\)", [a-z_]*_argument,.*/--\1/p' \
	"$here/userspace/flowgen/flowgen.c"; } | sort -u | sed 's/^/flowgen /' > "$tmp/flowgen.want"
count=$(wc -l < "$tmp/flowgen.want")
lost=$(missing "$tmp/flowgen.want")
[ -z "$lost" ] && [ "$count" -ge 30 ]
result $? flowgen_options "not in sluice-flowgen(8):$lost ($count options read)"

# "make install-man" puts every page where man looks, and
# "make uninstall-man" takes them all away again.
root="$tmp/root"
bad=""
make -s -C "$here" install-man DESTDIR="$root" PREFIX=/usr > "$tmp/make" 2>&1 ||
	bad="install-man failed: $(cat "$tmp/make")"
for p in "$man"/*.[1-8]; do
	name=${p##*/}
	cmp -s "$p" "$root/usr/share/man/man${name##*.}/$name" || bad="$bad $name"
done
make -s -C "$here" uninstall-man DESTDIR="$root" PREFIX=/usr > "$tmp/make" 2>&1 ||
	bad="$bad uninstall-man failed: $(cat "$tmp/make")"
left=$(find "$root" -type f)
[ -z "$bad" ] && [ -z "$left" ]
result $? install_man "not installed:$bad; left after uninstall-man: $left"

ktap_exit
