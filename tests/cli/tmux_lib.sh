# tmux_lib.sh - what the tests that drive the screen in a real terminal
# share: the checks that tmux and a terminfo entry are there, a private
# server, a detached pane that stays after the program left, and reading
# the pane back (its text, and the SGR escapes before a text). Every wait
# polls what the pane shows, bounded by a minute: a guard against a hang,
# never a measure of time. Sourced after lib.sh.

# tmux_setup WHAT SOCKET [CLEANUP]: skips WHAT and finishes where tmux or a
# terminfo entry is missing; else sets PANE_TERM (tmux's own entry if it is
# installed) and T (the tmux command of a private server, tcr-SOCKET-PID),
# and on exit kills the server, runs CLEANUP and removes $TMP.
tmux_setup() {
	if ! command -v tmux >/dev/null 2>&1; then
		skip "$1" "tmux is not installed"
		finish
	fi
	PANE_TERM=
	for t in tmux-256color screen-256color xterm-256color; do
		if infocmp "$t" >/dev/null 2>&1 || tput -T "$t" longname >/dev/null 2>&1; then
			PANE_TERM=$t
			break
		fi
	done
	if [ -z "$PANE_TERM" ]; then
		skip "$1" "no terminfo entry for tmux-256color, screen-256color or xterm-256color"
		finish
	fi
	unset TMUX TMUX_PANE
	export LANG=C.UTF-8 LC_ALL=C.UTF-8    # both sides: the server too, or CJK is mangled
	T="tmux -u -L tcr-$2-$$ -f /dev/null"
	trap '$T kill-server >/dev/null 2>&1; '"${3:-}"' rm -rf "$TMP"' EXIT
}

# tmux_spawn NAME WIDTH HEIGHT: a detached session NAME of that size running
# $TMP/NAME.sh; remain-on-exit keeps the pane to read what it said last.
tmux_spawn() {
	$T new-session -d -s "$1" -x "$2" -y "$3" "sh '$TMP/$1.sh'" \; \
		set-option -g remain-on-exit on \; set-option -g escape-time 0 >/dev/null 2>&1
}

# cap NAME: the pane's text, its history too (-S -): once the program left
# the alternate screen, or the pane died, tmux may scroll lines into it.
cap() { $T capture-pane -p -S - -t "$1" 2>/dev/null; }

# wait_for NAME TEXT [TENTHS]: polls the pane until it shows TEXT (a fixed
# string), at most TENTHS tenths of a second (default 600).
wait_for() {
	n=0
	until cap "$1" | grep -qF -- "$2"; do
		n=$((n + 1))
		[ "$n" -ge "${3:-600}" ] && return 1
		sleep 0.1
	done
	return 0
}

# expect NAME TEST TEXT: a check that the pane comes to show TEXT.
expect() {
	if wait_for "$1" "$3"; then
		pass "$2"
	else
		fail "$2" "the pane did not show '$3' within 60 s; it shows:" "$(cap "$1")"
		return 1
	fi
}

# expect_gone NAME TEST TEXT: the pane comes to no longer show TEXT.
expect_gone() {
	n=0
	while cap "$1" | grep -qF -- "$3"; do
		n=$((n + 1))
		if [ "$n" -ge 600 ]; then
			fail "$2" "the pane still shows '$3' after 60 s:" "$(cap "$1")"
			return 1
		fi
		sleep 0.1
	done
	pass "$2"
}

# sgr_before NAME TEXT: the SGR parameters (";"-joined) of the escape
# sequences just before TEXT on the first line of the pane showing it.
sgr_before() {
	$T capture-pane -e -p -t "$1" 2>/dev/null | awk -v text="$2" '
		(i = index($0, text)) > 0 {
			pre = substr($0, 1, i - 1); out = ""
			while (match(pre, /\033\[[0-9;]*m$/)) {
				out = substr(pre, RSTART + 2, RLENGTH - 3) ";" out
				pre = substr(pre, 1, RSTART - 1)
			}
			print out; exit
		}'
}

# sgr_has NAME TEST TEXT CODE: TEXT is drawn with SGR parameter CODE set.
sgr_has() {
	codes=$(sgr_before "$1" "$3")
	case ";$codes" in
	*";$4;"*) pass "$2" ;;
	*) fail "$2" "the escapes before '$3' are '$codes', without $4:" "$($T capture-pane -e -p -t "$1" | cat -v)" ;;
	esac
}
